/**
 * What the service hands the on-demand account pages (through
 * `Astro.locals`): everything is decided by the API (session, CSRF token,
 * policy); the pages only show it.
 */
export interface ConnectionView {
  grant_id: string;
  client_name: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

export interface AccountPageView {
  handle: string;
  identity_id: string;
  csrf: string;
  connections: ConnectionView[];
  /** One line to show after a form was handled (e.g. "Disconnected Example Client."). */
  notice?: string;
}

export interface ConsentView {
  uid: string;
  csrf: string;
  handle: string;
  client_name: string;
  client_id: string;
  /** Where the client receives the answer, shown so a person can tell who is asking. */
  redirect_uri: string;
  /** Every scope asked for; each is a checkbox, checked, that the person may clear. */
  scopes: string[];
  /** The resource the token will be bound to. */
  resource: string;
  /** The page's Content-Security-Policy: the default plus form-action for the client's redirect. */
  content_security_policy: string;
}
