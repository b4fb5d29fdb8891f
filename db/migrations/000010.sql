-- Record pages rendered while the operator's serving fence stood carry its
-- banner (site/layouts/Base.astro). Each is noted here, and the worker renders
-- it again once the fence is lowered (worker/render/fence-banner.ts).
CREATE TABLE fenced_renders (
  type     text NOT NULL,
  id       text NOT NULL,
  noted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (type, id)
);
