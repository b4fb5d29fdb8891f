-- Renderers claim changes with a lease instead of holding a transaction open
-- while they render: a renderer that dies lets its lease lapse, and no
-- connection sits in a transaction waiting on templates.
ALTER TABLE changes ADD COLUMN render_lease_until timestamptz;
