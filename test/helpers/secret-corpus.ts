/**
 * The secret-scanner corpus: secret shapes that must never be published,
 * and ordinary error lines that must pass unchanged.
 *
 * Every fake secret is built at run time from pieces and a seeded
 * generator, so no literal in the repository looks like a live credential.
 * The shapes follow the providers' published formats and the secretlint
 * preset's own rule fixtures, in the forms agents paste them: bare in a log
 * line, quoted, in JSON, split over escaped or real line breaks, followed by
 * a suffix or punctuation, and lower-case where a format allows it.
 */

let state = 20_241;
/** Seeded characters from an alphabet. */
export function chars(alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    // mulberry32: small, seeded, and without the short cycles of a plain LCG's low bits.
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }
  return out;
}
export const p = (...parts: string[]) => parts.join('');
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}_-`;
const HEX = '0123456789abcdef';

export interface SecretCase {
  /** What it is, as a sentence fragment for test names. */
  shape: string;
  /** The text as an agent pastes it. */
  text: string;
  /** What must not survive anywhere (each piece, and any 8 characters of it). */
  secrets: string[];
}

/** Whether any of the case's secrets, or any 8 characters in a row of one, is still in `text`; the piece found, or null. */
export function leaks(c: SecretCase, text: string): string | null {
  for (const secret of c.secrets) {
    if (text.includes(secret)) return secret;
    for (let i = 0; i + 8 <= secret.length; i++)
      if (text.includes(secret.slice(i, i + 8))) return secret.slice(i, i + 8);
  }
  return null;
}

/** A password made to look typed by a person: letters, digits, symbols. */
const password = (n = 14) => p(chars(ALNUM, n - 3), '!', chars(DIGITS, 1), chars(LOWER, 1));

/** Provider tokens, from the rule set's formats. */
function providerTokens(): [string, string][] {
  return [
    ['GitHub classic personal access token', p('gh', 'p_', chars(ALNUM, 36))],
    ['GitHub OAuth token', p('gh', 'o_', chars(ALNUM, 36))],
    ['GitHub user-to-server token', p('gh', 'u_', chars(ALNUM, 36))],
    ['GitHub server-to-server token', p('gh', 's_', chars(ALNUM, 36))],
    ['GitHub refresh token', p('gh', 'r_', chars(ALNUM, 36))],
    ['GitHub fine-grained token', p('github', '_pat_', chars(ALNUM, 22), '_', chars(ALNUM, 59))],
    ['GitLab personal access token', p('gl', 'pat-', chars(B64URL.replace('-', ''), 20))],
    ['GitLab deploy token', p('gl', 'dt-', chars(ALNUM, 20))],
    ['GitLab runner token', p('gl', 'rt-', chars(ALNUM, 20))],
    ['Slack bot token', p('xo', 'xb-', chars(DIGITS, 12), '-', chars(DIGITS, 13), '-', chars(ALNUM, 24))],
    [
      'Slack user token',
      p('xo', 'xp-', chars(DIGITS, 12), '-', chars(DIGITS, 12), '-', chars(DIGITS, 13), '-', chars(HEX, 32)),
    ],
    ['Slack app-level token', p('xa', 'pp-1-', chars(UPPER + DIGITS, 11), '-', chars(DIGITS, 13), '-', chars(HEX, 64))],
    ['Stripe live secret key', p('sk', '_live_', chars(ALNUM, 24))],
    ['Stripe test secret key', p('sk', '_test_', chars(ALNUM, 32))],
    ['Stripe restricted key', p('rk', '_live_', chars(ALNUM, 24))],
    ['Stripe webhook secret', p('wh', 'sec_', chars(ALNUM, 32))],
    ['OpenAI project key', p('sk', '-proj-', chars(B64URL, 74), 'T3Blbk', 'FJ', chars(B64URL, 74))],
    ['OpenAI legacy key', p('sk', '-', chars(ALNUM, 20), 'T3Blbk', 'FJ', chars(ALNUM, 20))],
    ['Anthropic API key', p('sk', '-ant-api03-', chars(B64URL, 93), 'AA')],
    ['npm access token', p('np', 'm_', chars(ALNUM, 36))],
    ['SendGrid key', p('S', 'G.', chars(B64URL, 22), '.', chars(B64URL, 43))],
    ['Hugging Face token', p('h', 'f_', chars(UPPER + LOWER, 34))],
    ['Groq key', p('gs', 'k_', chars(ALNUM, 52))],
    ['Linear key', p('lin', '_api_', chars(ALNUM, 40))],
    ['Notion token', p('nt', 'n_', chars(DIGITS, 11), chars(ALNUM, 35))],
    ['Shopify access token', p('shp', 'at_', chars(HEX, 32))],
    ['Databricks token', p('da', 'pi', chars(HEX, 32))],
    ['Docker Hub access token', p('dckr', '_pat_', chars(B64URL, 27))],
    ['Figma token', p('fi', 'gd_', chars(B64URL, 40))],
    ['Cloudflare token', p('cf', 'ut_', chars(ALNUM, 40), chars(HEX, 8))],
    ['Tailscale key', p('tskey', '-api-', chars(ALNUM, 12), '-', chars(ALNUM, 32))],
    ['Vercel token', p('vc', 'p_', chars(ALNUM, 40))],
    ['HashiCorp Vault token', p('hv', 's.', chars(B64URL, 95))],
    ['Grafana service-account token', p('gl', 'sa_', chars(ALNUM, 32), '_', chars(HEX, 8))],
    ['Grafana Cloud token', p('gl', 'c_', chars(B64, 48))],
    ['AWS access key id', p('AK', 'IA', chars(`${UPPER}234567`, 16))],
    ['AWS temporary access key id', p('AS', 'IA', chars(`${UPPER}234567`, 16))],
    ['Google API key', p('AI', 'za', chars(B64URL, 35))],
    ['Google OAuth access token', p('ya', '29.', chars(B64URL, 60))],
    ['Google OAuth client secret', p('GOC', 'SPX-', chars(B64URL, 28))],
    ['PyPI token', p('py', 'pi-', chars(B64URL, 60))],
    ['JSON Web Token', p('ey', 'JhbGciOiJIUzI1NiJ9.', 'ey', 'J', chars(B64URL, 40), '.', chars(B64URL, 43))],
  ];
}

function pem(label: string, lines = 6): { block: string; body: string[] } {
  const body = Array.from({ length: lines }, (_, i) => (i === 0 ? p('MII', chars(B64, 61)) : chars(B64, 64)));
  return { block: p('-----BEGIN ', label, '-----\n', body.join('\n'), '\n-----END ', label, '-----'), body };
}

/** The cases, in a fixed order; each call builds the same texts. */
export function secretCases(): SecretCase[] {
  state = 20_241;
  const cases: SecretCase[] = [];
  const add = (shape: string, text: string, ...secrets: string[]) => cases.push({ shape, text, secrets });

  for (const [name, token] of providerTokens()) {
    add(`${name} in a log line`, `error: request rejected (401) for credential ${token} at 12:00:01`, token);
    add(`${name} quoted in JSON`, `{"level":"error","msg":"auth failed","value":"${token}"}`, token);
    add(
      `${name} in prose, followed by punctuation`,
      `I exported ${token}, then the client said "unauthorized".`,
      token,
    );
  }

  // GitHub tokens followed by a suffix, and in a remote URL.
  const gh = p('gh', 'p_', chars(ALNUM, 36));
  add('GitHub token followed by _suffix', `GITHUB_TOKEN_OLD=${gh}_old was revoked`, gh);
  add('GitHub token followed by _suffix in prose', `token ${gh}_backup does not work`, gh);
  const gho = p('gh', 'o_', chars(ALNUM, 36));
  add('GitHub token as URL user', `fatal: unable to access 'https://${gho}@github.com/o/r.git/': 403`, gho);

  // Assignments whose name says password, secret, token or key.
  const assignments: [string, (v: string) => string][] = [
    ['DB_PASSWORD=', (v) => `DB_PASSWORD=${v}`],
    ['PGPASSWORD=', (v) => `PGPASSWORD=${v} psql -h db -U app`],
    ['SECRET_KEY=', (v) => `SECRET_KEY=${v}`],
    ['JWT_SECRET=', (v) => `export JWT_SECRET=${v}`],
    ['password="…"', (v) => `password="${v}"`],
    ["api_key = '…'", (v) => `api_key = '${v}'`],
    ['lower-case db_password=', (v) => `db_password=${v}`],
    ['MYSQL_ROOT_PASSWORD in compose', (v) => `      - MYSQL_ROOT_PASSWORD=${v}`],
    ['REDIS_PASSWORD: in YAML', (v) => `REDIS_PASSWORD: ${v}`],
    ['quoted YAML password:', (v) => `  password: "${v}"`],
    ['client_secret: in YAML', (v) => `client_secret: '${v}'`],
    ['Django SECRET_KEY in Python', (v) => `SECRET_KEY = "${v}"`],
    ['Rails secret_key_base', (v) => `secret_key_base: ${v}`],
    ['OPENAI_API_KEY=', (v) => `OPENAI_API_KEY=${v}`],
    ['NODE_AUTH_TOKEN=', (v) => `NODE_AUTH_TOKEN=${v} npm publish`],
    ['access_token= in a query string', (v) => `GET /api/me?access_token=${v}&format=json 401`],
    ['token= in a query string', (v) => `https://example.net/hook?token=${v}`],
    ['api_key := in Go', (v) => `apiKey := "${v}"`],
    ['password => in PHP', (v) => `'password' => '${v}',`],
    ['PASSWORD in a .env line with spaces', (v) => `PASSWORD = ${v}`],
    ['set -x trace of an export', (v) => `+ export AWS_SESSION_TOKEN=${v}`],
    ['npm _authToken', (v) => `//registry.npmjs.org/:_authToken=${v}`],
    ['npm _auth', (v) => `_auth=${v}`],
    ['--password flag', (v) => `mysqldump --user=root --password=${v} app`],
    ['--token flag with a space', (v) => `vault login --token ${v}`],
    ['STRIPE_KEY with a made value', (v) => `STRIPE_KEY=${v}`],
    ['connection-string Password=', (v) => `Server=db;Database=app;User Id=sa;Password=${v};`],
    [
      'AccountKey in an Azure connection string',
      (v) => `DefaultEndpointsProtocol=https;AccountName=store;AccountKey=${v};EndpointSuffix=core.windows.net`,
    ],
    [
      'SharedAccessKey in a Service Bus string',
      (v) => `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${v}`,
    ],
    ['camelCase jwtSecret:', (v) => `jwtSecret: '${v}'`],
  ];
  for (const [shape, make] of assignments) {
    const value = shape.includes('Azure') || shape.includes('Service Bus') ? p(chars(B64, 86), '==') : password(18);
    add(`assignment ${shape}`, make(value), value);
  }

  // JSON fields.
  const jsonFields = [
    'password',
    'auth',
    'private_key',
    '_authToken',
    'client_secret',
    'refresh_token',
    'apiKey',
    'secret',
    'access_token',
    'db_password',
  ];
  for (const field of jsonFields) {
    const value = password(20);
    add(`JSON "${field}" field`, `{"user":"app","${field}": "${value}","host":"db"}`, value);
  }
  const dockerAuth = Buffer.from(p('deploy:', password(16))).toString('base64');
  add('Docker config auth', `{"auths":{"https://index.docker.io/v1/":{"auth":"${dockerAuth}"}}}`, dockerAuth);
  const dockerAuth2 = Buffer.from(p('ci:', password(16))).toString('base64');
  add(
    'Docker config auth, pretty-printed',
    `{\n  "auths": {\n    "ghcr.io": {\n      "auth": "${dockerAuth2}"\n    }\n  }\n}`,
    dockerAuth2,
  );
  const keyBody = chars(B64, 64);
  add(
    'service-account private_key with escaped line breaks (split)',
    `{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\n${keyBody}\\n${keyBody.slice(0, 40)}\\n-----END PRIVATE KEY-----\\n"}`,
    keyBody,
  );

  // URL user-info.
  const urls: [string, (pw: string) => string][] = [
    ['postgres URL', (pw) => `Error: connect ECONNREFUSED postgres://app:${pw}@db.internal:5432/app`],
    ['postgresql URL with an @ in the password', (pw) => `postgresql://app:${pw}@x@db.internal:5432/app`],
    ['MySQL URL', (pw) => `mysql://root:${pw}@127.0.0.1:3306/shop`],
    ['MongoDB SRV URL', (pw) => `MongoServerError: bad auth mongodb+srv://admin:${pw}@cluster0.abcde.mongodb.net/test`],
    ['Redis URL without a user', (pw) => `redis://:${pw}@cache:6379/0`],
    ['AMQP URL', (pw) => `amqp://guest:${pw}@rabbit:5672/`],
    ['HTTPS URL with basic credentials', (pw) => `curl https://deploy:${pw}@registry.example.com/v2/`],
    ['git remote with a password containing @ and :', (pw) => `remote: https://bot:${pw}@:x@git.example.org/o/r.git`],
    ['JDBC URL', (pw) => `jdbc:postgresql://db:5432/app?user=app&password=${pw}`],
    ['SMTP URL', (pw) => `smtp://mailer:${pw}@smtp.example.com:587`],
  ];
  for (const [shape, make] of urls) {
    const pw = password(16);
    add(`password in a ${shape}`, make(pw), pw);
  }

  // Header lines.
  const headers: [string, string][] = [
    ['X-Api-Key', 'X-Api-Key: '],
    ['lower-case x-api-key', 'x-api-key: '],
    ['X-Auth-Token', 'X-Auth-Token: '],
    ['Private-Token', 'Private-Token: '],
    ['X-Vault-Token', 'X-Vault-Token: '],
    ['Api-Key', 'api-key: '],
    ['Ocp-Apim-Subscription-Key', 'Ocp-Apim-Subscription-Key: '],
    ['X-Goog-Api-Key', 'X-Goog-Api-Key: '],
    ['Authorization Bearer', 'Authorization: Bearer '],
    ['lower-case authorization bearer', 'authorization: bearer '],
    ['Authorization token', 'Authorization: token '],
    ['Proxy-Authorization Basic', 'Proxy-Authorization: Basic '],
    ['curl -H Authorization', 'curl -H "Authorization: Bearer '],
    ['JSON headers object', '{"headers":{"X-API-KEY":"'],
  ];
  for (const [shape, head] of headers) {
    const value = shape.includes('Basic') ? Buffer.from(p('svc:', password(14))).toString('base64') : chars(B64URL, 40);
    add(`${shape} header`, `${head}${value}${head.endsWith('"') ? '"}}' : ''}`, value);
  }
  const cookie = chars(ALNUM, 32);
  add('Cookie header', `Cookie: sessionid=${cookie}; theme=dark`, cookie);
  const setCookie = chars(ALNUM, 32);
  add('Set-Cookie header', `Set-Cookie: sid=${setCookie}; Path=/; HttpOnly`, setCookie);
  const logBearer = chars(B64URL, 43);
  add('bearer token in a log line', `401 Unauthorized: bearer ${logBearer} rejected`, logBearer);
  const sas = chars(B64, 43);
  add(
    'Azure SAS signature in a URL',
    `https://store.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sig=${encodeURIComponent(`${sas}=`)}`,
    encodeURIComponent(sas).slice(0, 30),
  );

  // Private keys.
  for (const label of [
    'RSA PRIVATE KEY',
    'EC PRIVATE KEY',
    'PRIVATE KEY',
    'OPENSSH PRIVATE KEY',
    'ENCRYPTED PRIVATE KEY',
    'DSA PRIVATE KEY',
    'PGP PRIVATE KEY BLOCK',
  ]) {
    const { block, body } = pem(label);
    add(`PEM ${label}`, `key file:\n${block}\nthen: error:0909006C:PEM routines`, ...body);
  }
  const lower = pem('RSA PRIVATE KEY');
  add('lower-case PEM block', lower.block.toLowerCase(), ...lower.body.map((l) => l.toLowerCase()));
  const crlf = pem('PRIVATE KEY');
  add('PEM block with CRLF line breaks (split)', crlf.block.replaceAll('\n', '\r\n'), ...crlf.body);
  const cut = pem('RSA PRIVATE KEY');
  add('PEM block cut off by the paste', cut.block.slice(0, cut.block.indexOf('-----END')), ...cut.body);
  const indented = pem('OPENSSH PRIVATE KEY');
  add(
    'PEM block indented in YAML (split)',
    `ssh_key: |\n${indented.block
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n')}`,
    ...indented.body,
  );
  for (const version of ['2', '3']) {
    const pub = chars(B64, 64);
    const priv = [chars(B64, 64), chars(B64, 64), chars(B64, 20)];
    const mac = chars(HEX, 64);
    add(
      `PuTTY private key, version ${version}`,
      p(
        `PuTTY-User-Key-File-${version}: ssh-rsa\nEncryption: none\nComment: rsa-key-20240101\nPublic-Lines: 1\n`,
        pub,
        '\nPrivate-Lines: 3\n',
        priv.join('\n'),
        '\nPrivate-MAC: ',
        mac,
      ),
      ...priv,
      mac,
    );
  }

  // Environment dumps.
  const awsSecret = chars(`${ALNUM}/+`, 40);
  add('AWS secret access key in an env dump', `AWS_SECRET_ACCESS_KEY=${awsSecret}`, awsSecret);
  const awsSecret2 = chars(`${ALNUM}/+`, 40);
  add('AWS secret access key in credentials file, lower-case', `aws_secret_access_key = ${awsSecret2}`, awsSecret2);
  const awsSecret3 = chars(`${ALNUM}/+`, 40);
  add('AWS SecretAccessKey in JSON', `{"AccessKeyId":"x","SecretAccessKey":"${awsSecret3}"}`, awsSecret3);
  return cases;
}

/** Error lines and text that look random or mention secrets, and are no secret. */
export function ordinaryLines(): string[] {
  state = 77_001;
  const hex = (n: number) => chars(HEX, n);
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  const lines: string[] = [
    'FATAL:  password authentication failed for user "postgres"',
    'psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"',
    "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
    "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: NO)",
    'Password: Sorry, try again.',
    'sudo: a password is required',
    'remote: Support for password authentication was removed on August 13, 2021.',
    "fatal: Authentication failed for 'https://github.com/o/r.git/'",
    'Error: secretOrPrivateKey must have a value',
    'JsonWebTokenError: invalid token',
    'TokenExpiredError: jwt expired',
    'Error: Invalid API key provided. Check your settings.',
    'AuthenticationError: No API key provided.',
    'botocore.exceptions.NoCredentialsError: Unable to locate credentials',
    'The security token included in the request is invalid.',
    'WWW-Authenticate: Bearer realm="api", error="invalid_token"',
    'Basic authentication failed for user deploy',
    'Bearer authentication_required',
    'Error: The password must be at least 12 characters long',
    'Your password has expired and must be changed.',
    'passwd: Authentication token manipulation error',
    'ssh: Permission denied (publickey,password).',
    'Permission denied (publickey).',
    'Load key "/home/u/.ssh/id_rsa": invalid format',
    'error: secret "db-credentials" not found',
    'Error from server (NotFound): secrets "app-secret" not found',
    'kubectl create secret generic db --from-literal=user=app',
    'Could not resolve host: https://user@github.com/org/repo.git',
    'password_file: /run/secrets/db_password',
    'DB_PASSWORD_FILE=/run/secrets/db_password',
    'token_type: bearer',
    'max_tokens: 4096',
    'TOKENIZERS_PARALLELISM=false',
    'auth_method=scram-sha-256',
    'The key "sort_key" does not exist in the index',
    'duplicate key value violates unique constraint "users_pkey"',
    "KeyError: 'password'",
    "KeyError: 'api_key'",
    'ValueError: password cannot be empty',
    "TypeError: Cannot read properties of undefined (reading 'token')",
    'password=${DB_PASSWORD}',
    'PASSWORD=$DB_PASSWORD',
    'api_key="<your-api-key>"',
    'password: "********"',
    'SECRET_KEY=changeme',
    'token=null',
    'Set-Cookie: theme=dark; Path=/; Secure',
    'Authorization header missing',
    'x-api-key header is required',
    'npm ERR! code E401 npm ERR! Unable to authenticate, need: Basic realm="GitHub Package Registry"',
    'AccessDenied: User: arn:aws:iam::123456789012:user/ci is not authorized to perform: s3:GetObject',
    'panic: runtime error: invalid memory address or nil pointer dereference [signal SIGSEGV: segmentation violation addr=0x0 pc=0x4a5b6c]',
    '<object object at 0x7f3b2c1d0e90>',
    'Back-off restarting failed container api in pod api-7d9f8b6c5d-x2k4p_default',
    'npm ERR! sha512-Zm9vYmFyYmF6cXV4 integrity checksum failed',
    'error: pathspec 3f4e1a2 did not match any file(s) known to git',
    'OpenSSL: error:0909006C:PEM routines:get_name:no start line',
    'Expecting: ANY PRIVATE KEY',
    'unable to load Private Key',
    'The secret you entered is incorrect',
    'Error: key must be a string or buffer',
    'java.security.InvalidKeyException: Illegal key size',
    'SSL: CERTIFICATE_VERIFY_FAILED certificate verify failed: self signed certificate in certificate chain',
    'Error: connect ECONNREFUSED 127.0.0.1:5432',
    'Error: getaddrinfo ENOTFOUND db.internal',
    'redis.exceptions.AuthenticationError: invalid username-password pair or user is disabled.',
    'MongoServerError: bad auth : Authentication failed.',
    "Access to fetch at 'https://api.example.com' from origin 'http://localhost:3000' has been blocked by CORS policy",
    "TS2322: Type 'string' is not assignable to type 'number'.",
    "ModuleNotFoundError: No module named 'secrets_manager'",
    'the token endpoint answered invalid_grant',
    'Invalid value for "--password": expected a string',
  ];
  for (let i = 0; i < 8; i++) lines.push(`fatal: reference is not a tree: ${hex(40)}`);
  for (let i = 0; i < 8; i++) lines.push(`Job ${uuid()} failed after 3 retries`);
  for (let i = 0; i < 6; i++) lines.push(`manifest unknown: sha256:${hex(64)}`);
  for (let i = 0; i < 6; i++) lines.push(`Error response from daemon: No such container: ${hex(64)}`);
  // Base64 that is no secret: encoded words, a PNG header, a public-key line.
  for (const word of [
    'hello world, this is a test message',
    'The quick brown fox jumps over the lazy dog',
    '{"alg":"none"}',
    'not a secret at all',
  ]) {
    lines.push(`decoded payload ${Buffer.from(word).toString('base64')} is not valid UTF-16`);
  }
  lines.push(
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  );
  lines.push(`ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${chars(B64, 43)} user@host`);
  lines.push(`integrity sha512-${chars(B64, 86)}== failed`);
  return lines;
}
