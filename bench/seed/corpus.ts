/**
 * Realistic records for seeding: problems built from error templates of many
 * ecosystems, with each machine's own paths, ports, ids and versions filled
 * in, their solutions, and discussions. The errors here differ from the
 * search evaluation set (test/search/eval-cases.ts), so seeded noise shares
 * its vocabulary but never ties with its literals.
 */
import type { Random } from './random.ts';

export interface ProblemDraft {
  title: string;
  body: string;
  product: string;
  errorLiteral: string;
  tags: string[];
}

export interface SolutionDraft {
  body: string;
  applicability: string | null;
  limitations: string | null;
}

export interface DiscussionDraft {
  title: string;
  body: string;
  product: string | null;
}

interface ErrorTemplate {
  products: string[];
  titles: string[];
  literal: string;
  details: string[];
  fixes: string[];
  tags: string[];
}

const USERS = ['alice', 'bob', 'dev', 'runner', 'ci', 'kim', 'li', 'sam', 'ana', 'ops', 'deploy', 'ubuntu'];
const PROJECTS = [
  'api',
  'web',
  'app',
  'shop',
  'billing',
  'monorepo',
  'svc',
  'backend',
  'frontend',
  'worker',
  'etl',
  'site',
];
const DIRS = ['src', 'lib', 'server', 'routes', 'services', 'utils', 'jobs', 'handlers', 'models', 'core'];
const NAMES = [
  'index',
  'main',
  'server',
  'client',
  'db',
  'config',
  'users',
  'orders',
  'auth',
  'cache',
  'queue',
  'payments',
];
const NODE_PKGS = [
  'express',
  'axios',
  'lodash',
  'react',
  'next',
  'prisma',
  'sequelize',
  'typeorm',
  'jest',
  'webpack',
  'vite',
  'sharp',
  'bcrypt',
  'mongoose',
  'ioredis',
  'kafkajs',
  'fastify',
  'dotenv',
  'zod',
  'puppeteer',
];
const PY_PKGS = [
  'numpy',
  'pandas',
  'requests',
  'flask',
  'django',
  'fastapi',
  'sqlalchemy',
  'celery',
  'pytest',
  'boto3',
  'pydantic',
  'uvicorn',
  'psycopg2',
  'torch',
];
// Names of hosts, images, tables and fields are each project's own: built from two word lists,
// so that most seeded literals are distinct errors, as in a real knowledge base, and few are shared.
const QUALIFIERS = [
  'user',
  'order',
  'billing',
  'invoice',
  'tenant',
  'session',
  'payment',
  'account',
  'product',
  'cart',
  'audit',
  'report',
  'search',
  'media',
  'shipping',
  'catalog',
  'ledger',
  'export',
  'import',
  'profile',
  'message',
  'event',
  'job',
  'webhook',
];
const NOUNS = [
  'id',
  'items',
  'status',
  'total',
  'events',
  'records',
  'cache',
  'queue',
  'store',
  'index',
  'log',
  'state',
  'lines',
  'refs',
  'keys',
  'stats',
  'api',
  'db',
  'worker',
  'gateway',
  'service',
  'sync',
  'batch',
  'meta',
];
const identifier = (r: Random, join: string) => `${r.pick(QUALIFIERS)}${join}${r.pick(NOUNS)}`;
const HOST_SUFFIXES = ['internal', 'svc.cluster.local', 'prod.acme.io', 'example.com', 'local'];
const OSES = ['Ubuntu 22.04', 'macOS 14', 'Windows 11', 'Debian 12', 'Alpine 3.19', 'Amazon Linux 2023'];
const RUNTIMES = ['Node', 'Python', 'Go', 'Java', 'Rust', 'Docker'];

function unixPath(r: Random, ext: string): string {
  const root = r.pick([
    `/home/${r.pick(USERS)}`,
    '/srv',
    '/app',
    `/Users/${r.pick(USERS)}`,
    '/opt',
    '/var/lib',
    '/workspace',
  ]);
  return `${root}/${r.pick(PROJECTS)}/${r.pick(DIRS)}/${r.pick(NAMES)}.${ext}`;
}

function windowsPath(r: Random, ext: string): string {
  return `C:\\Users\\${r.pick(USERS)}\\${r.pick(PROJECTS)}\\${r.pick(DIRS)}\\${r.pick(NAMES)}.${ext}`;
}

const hex = (r: Random, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[r.int(0, 15)]).join('');

const SLOTS: Record<string, (r: Random) => string> = {
  path: (r) =>
    r.chance(0.25) ? windowsPath(r, r.pick(['js', 'ts', 'json'])) : unixPath(r, r.pick(['js', 'ts', 'json'])),
  pypath: (r) => unixPath(r, 'py'),
  relrs: (r) => `src/${r.pick(NAMES)}.rs`,
  gofile: (r) => `${r.pick(NAMES)}.go`,
  java: (r) =>
    `${r.pick(['Order', 'User', 'Invoice', 'Billing', 'Auth'])}${r.pick(['Service', 'Controller', 'Repository'])}`,
  user: (r) => r.pick(USERS),
  port: (r) => String(r.pick([80, 443, 3000, 5432, 6379, 8080, 8443, 9092, 27017, r.int(1024, 65535)])),
  ip: (r) =>
    r.chance(0.2) ? '::1' : `${r.pick([10, 127, 172, 192])}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`,
  host: (r) => `${identifier(r, '-')}.${r.pick(HOST_SUFFIXES)}`,
  ver: (r) => `${r.int(0, 20)}.${r.int(0, 30)}.${r.int(0, 15)}`,
  pid: (r) => String(r.int(100, 99999)),
  hex: (r) => hex(r, 12),
  hex2: (r) => hex(r, 2),
  uuid: (r) => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`,
  n: (r) => String(r.int(1, 400)),
  ms: (r) => String(r.pick([5000, 10000, 30000, 60000])),
  status: (r) => String(r.pick([400, 401, 403, 404, 409, 429, 500, 502, 503])),
  pkg: (r) => r.pick(NODE_PKGS),
  pypkg: (r) => r.pick(PY_PKGS),
  field: (r) =>
    r.chance(0.5) ? identifier(r, '_') : `${r.pick(QUALIFIERS)}${r.pick(NOUNS).replace(/^./, (c) => c.toUpperCase())}`,
  table: (r) => identifier(r, '_'),
  image: (r) => r.pick(['acme/', 'ghcr.io/acme/', 'registry.acme.io/']) + identifier(r, '-'),
  os: (r) => r.pick(OSES),
  runtime: (r) => r.pick(RUNTIMES),
  code: (r) => String(r.pick([1, 2, 127, 137, 143])),
  ts: (r) =>
    `2024-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}T${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}Z`,
};

/**
 * Fills every `{slot}`: slots in `given` take its value, others a fresh one
 * each time, recorded in `seen` (first value per slot) when it is passed.
 */
function fill(r: Random, template: string, given: Record<string, string> = {}, seen?: Record<string, string>): string {
  return template.replace(/\{([a-z0-9]+)\}/g, (_, slot: string) => {
    const value = given[slot] ?? SLOTS[slot]?.(r) ?? slot;
    if (seen && !(slot in seen)) seen[slot] = value;
    return value;
  });
}

const TEMPLATES: ErrorTemplate[] = [
  {
    products: ['node', 'axios'],
    titles: ['getaddrinfo ENOTFOUND {host} from a container', 'DNS lookup fails with ENOTFOUND'],
    literal:
      'Error: getaddrinfo ENOTFOUND {host}\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:{n}:{n})',
    details: [
      'The service name resolves on the host but not inside the container network.',
      'Calls to {host} fail right after deploy.',
    ],
    fixes: [
      'Use the compose service name and put both services on the same network.',
      'Set the DNS server of the container explicitly.',
    ],
    tags: ['dns', 'docker'],
  },
  {
    products: ['node', 'express'],
    titles: ['read ECONNRESET under load', 'Random ECONNRESET from upstream'],
    literal: 'Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:{n}:{n})',
    details: [
      'The upstream closes idle keep-alive sockets before our agent does.',
      'Roughly one request in {n} fails.',
    ],
    fixes: [
      'Set the agent keepAlive timeout below the upstream idle timeout.',
      'Retry idempotent requests once on ECONNRESET.',
    ],
    tags: ['http', 'keep-alive'],
  },
  {
    products: ['axios', 'node'],
    titles: ['Request failed with status code {status} in production', 'axios rejects with status {status}'],
    literal: 'AxiosError: Request failed with status code {status}\n    at settle ({path}:{n}:{n})',
    details: ['The same call works with curl from the same machine.', 'Started after the API moved behind a gateway.'],
    fixes: [
      'Log error.response.data to see the body the server sent.',
      'Send the Authorization header the gateway expects.',
    ],
    tags: ['http'],
  },
  {
    products: ['node', 'next'],
    titles: ['Unexpected token < in JSON when calling the API', 'JSON parse fails on an HTML response'],
    literal: 'SyntaxError: Unexpected token \'<\', "<!DOCTYPE "... is not valid JSON',
    details: [
      'The fetch goes to the dev server, which answers index.html for unknown routes.',
      'Only in the deployed build.',
    ],
    fixes: [
      'Check response.ok and the content-type before parsing.',
      'Point the client at the API origin, not the static host.',
    ],
    tags: ['fetch', 'json'],
  },
  {
    products: ['npm', 'node'],
    titles: ['EPERM: operation not permitted, rename on Windows', 'npm install fails with EPERM rename'],
    literal: "Error: EPERM: operation not permitted, rename '{path}' -> '{path}'",
    details: ['An antivirus or the editor holds a lock on node_modules.', 'Only on Windows machines.'],
    fixes: [
      'Close editors and watchers, then run npm install again.',
      'Exclude the project folder from real-time scanning.',
    ],
    tags: ['windows', 'npm'],
  },
  {
    products: ['node', 'typescript'],
    titles: ['{pkg}.default is not a function after switching to ESM', 'default import is not a function'],
    literal: 'TypeError: {pkg}.default is not a function\n    at Object.<anonymous> ({path}:{n}:{n})',
    details: ['esModuleInterop is off and the package is CommonJS.', 'Works in tests, fails in the build.'],
    fixes: [
      'Enable esModuleInterop, or import with `import * as x from`.',
      'Align module and moduleResolution with the runtime.',
    ],
    tags: ['esm', 'typescript'],
  },
  {
    products: ['node', 'npm'],
    titles: [
      'self signed certificate in certificate chain behind a proxy',
      'npm install fails on self-signed certificate',
    ],
    literal:
      'Error: self signed certificate in certificate chain\n    at TLSSocket.onConnectSecure (node:_tls_wrap:{n}:{n})',
    details: ['A TLS-inspecting proxy re-signs traffic.', "The company CA is not in Node's store."],
    fixes: ['Set NODE_EXTRA_CA_CERTS to the company CA bundle.', 'Do not disable strict-ssl; add the CA instead.'],
    tags: ['tls', 'proxy'],
  },
  {
    products: ['jest'],
    titles: ['Exceeded timeout of {ms} ms for a test', 'jest test times out waiting for the database'],
    literal:
      'thrown: "Exceeded timeout of {ms} ms for a test.\nAdd a timeout value to this test to increase the timeout, if this is a long-running test."',
    details: [
      'A promise in beforeAll never resolves because the pool is not closed.',
      'Only the first test of the file times out.',
    ],
    fixes: ['Await every async setup and close pools in afterAll.', 'Raise the timeout only for genuinely slow tests.'],
    tags: ['testing'],
  },
  {
    products: ['psycopg2', 'postgresql'],
    titles: ['psycopg2 could not connect: connection timed out', 'Python cannot reach Postgres on {host}'],
    literal:
      'psycopg2.OperationalError: could not connect to server: Connection timed out\n\tIs the server running on host "{host}" ({ip}) and accepting\n\tTCP/IP connections on port {port}?',
    details: [
      'The security group does not allow the app subnet.',
      'Works from a laptop over VPN, not from the job runner.',
    ],
    fixes: [
      'Open the port for the app subnet in the security group.',
      'Check listen_addresses and pg_hba.conf on the server.',
    ],
    tags: ['postgres', 'network'],
  },
  {
    products: ['python', 'flask'],
    titles: ['ImportError: cannot import name from {pypkg}', 'Circular import breaks the app factory'],
    literal:
      "ImportError: cannot import name 'create_app' from partially initialized module 'app' (most likely due to a circular import) ({pypath})",
    details: ['models imports app and app imports models.', 'Started after moving the factory.'],
    fixes: ['Import inside the function, or move shared objects to an extensions module.'],
    tags: ['imports'],
  },
  {
    products: ['python', 'django', 'fastapi'],
    titles: ["'NoneType' object has no attribute '{field}'", 'AttributeError on a missing row'],
    literal: "AttributeError: 'NoneType' object has no attribute '{field}'",
    details: ['The query returns None when the row does not exist.', 'Only for users created before the migration.'],
    fixes: ['Check for None (or use get_object_or_404) before reading attributes.'],
    tags: ['python'],
  },
  {
    products: ['sqlalchemy'],
    titles: ['QueuePool limit reached, connection timed out', 'SQLAlchemy pool exhausted under load'],
    literal:
      'sqlalchemy.exc.TimeoutError: QueuePool limit of size {n} overflow {n} reached, connection timed out, timeout {n}',
    details: ['Sessions are not closed in a background task.', 'Happens after a few hours of traffic.'],
    fixes: ['Use the session as a context manager so it always closes.', 'Size the pool to the worker count.'],
    tags: ['database', 'pool'],
  },
  {
    products: ['python', 'pandas'],
    titles: ["'utf-8' codec can't decode byte reading a CSV", 'UnicodeDecodeError on an exported file'],
    literal: "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x{hex2} in position {n}: invalid start byte",
    details: ['The file was exported from Excel as cp1252.', 'Only some rows contain accented names.'],
    fixes: ['Read with encoding="cp1252" (or detect it), then write UTF-8.'],
    tags: ['encoding', 'csv'],
  },
  {
    products: ['go'],
    titles: ['http: panic serving: index out of range', 'Handler panics with index out of range'],
    literal:
      'http: panic serving {ip}:{port}: runtime error: index out of range [{n}] with length {n}\ngoroutine {n} [running]:',
    details: ['The handler reads parts[1] of a path that has no second segment.'],
    fixes: ['Check the length before indexing and answer 400.'],
    tags: ['http', 'panic'],
  },
  {
    products: ['go'],
    titles: ['context deadline exceeded awaiting headers', 'Go http client times out'],
    literal:
      'Get "https://{host}/v1/items": context deadline exceeded (Client.Timeout exceeded while awaiting headers)',
    details: ['The upstream takes longer than the client timeout under load.'],
    fixes: [
      'Raise the client timeout for this call and add a server-side limit.',
      'Reuse one http.Client instead of creating one per request.',
    ],
    tags: ['http', 'timeout'],
  },
  {
    products: ['go'],
    titles: ['go mod download fails for a private module', 'git ls-remote exit status 128 in go get'],
    literal:
      'go: github.com/acme/{pkg}@v{ver}: reading github.com/acme/{pkg}/go.mod at revision v{ver}: git ls-remote -q origin in {path}: exit status 128',
    details: ['The module is private and CI has no credentials for it.'],
    fixes: ['Set GOPRIVATE and a git url.insteadOf with a token.'],
    tags: ['modules'],
  },
  {
    products: ['rust'],
    titles: ['called Result::unwrap() on an Err value: NotFound', 'unwrap panics when the config file is missing'],
    literal:
      "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: \"No such file or directory\" }', {relrs}:{n}:{n}",
    details: ['The binary is started from another working directory.'],
    fixes: ['Resolve the path relative to the executable and return the error with context.'],
    tags: ['io'],
  },
  {
    products: ['rust'],
    titles: ['E0308 mismatched types in a match arm', 'expected String, found &str'],
    literal:
      'error[E0308]: mismatched types\n --> {relrs}:{n}:{n}\n  |\n  = note: expected struct `String`\n             found reference `&str`',
    details: ['One arm returns a literal, the other an owned String.'],
    fixes: ['Call .to_string() on the literal, or return &str from both arms.'],
    tags: ['types'],
  },
  {
    products: ['java', 'postgresql'],
    titles: ['PSQLException: Connection refused, check the hostname and port', 'JDBC cannot connect to Postgres'],
    literal:
      'org.postgresql.util.PSQLException: Connection to {host}:{port} refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.',
    details: ['The datasource URL still points at the old host.', 'Happens in the test profile only.'],
    fixes: ['Fix spring.datasource.url for the profile and wait for the database.'],
    tags: ['jdbc'],
  },
  {
    products: ['java'],
    titles: ['SocketTimeoutException: Read timed out calling a partner API', 'Read timed out in RestTemplate'],
    literal:
      'java.net.SocketTimeoutException: Read timed out\n\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:{n})',
    details: ['The partner API is slow at the start of the month.'],
    fixes: ['Set explicit connect and read timeouts and retry with backoff.'],
    tags: ['http', 'timeout'],
  },
  {
    products: ['jackson', 'spring-boot'],
    titles: ['UnrecognizedPropertyException: Unrecognized field "{field}"', 'Jackson fails on a new field'],
    literal:
      'com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException: Unrecognized field "{field}" (class com.acme.dto.{java}Dto), not marked as ignorable',
    details: ['The upstream API added a field.'],
    fixes: ['Configure FAIL_ON_UNKNOWN_PROPERTIES=false or @JsonIgnoreProperties(ignoreUnknown = true).'],
    tags: ['json'],
  },
  {
    products: ['postgresql'],
    titles: ['deadlock detected updating {table}', 'Postgres deadlock between two jobs'],
    literal:
      'ERROR:  deadlock detected\nDETAIL:  Process {pid} waits for ShareLock on transaction {pid}; blocked by process {pid}.',
    details: ['Two jobs update the same rows in different orders.'],
    fixes: ['Lock rows in a consistent order (ORDER BY id FOR UPDATE).', 'Retry the transaction on 40P01.'],
    tags: ['locking'],
  },
  {
    products: ['postgresql'],
    titles: ['canceling statement due to statement timeout on a report query', 'statement timeout on a large report'],
    literal: 'ERROR:  canceling statement due to statement timeout',
    details: ['The report scans {table} without an index on the filter.'],
    fixes: ['Add the index the filter needs; raise the timeout only for that role.'],
    tags: ['performance'],
  },
  {
    products: ['postgresql', 'prisma'],
    titles: ['column "{field}" does not exist', 'Query fails: column does not exist'],
    literal: 'ERROR:  column "{field}" does not exist\nLINE 1: SELECT {field} FROM {table}',
    details: [
      'The migration renamed the column but the query uses the old name.',
      'Camel-case column created with quotes.',
    ],
    fixes: ['Quote the camel-case name or rename the column to snake_case.'],
    tags: ['sql'],
  },
  {
    products: ['docker'],
    titles: ['pull access denied for {image}', 'docker pull: repository does not exist or may require login'],
    literal:
      "Error response from daemon: pull access denied for {image}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
    details: ['The image is private and the runner is not logged in.'],
    fixes: ['docker login to the registry before pulling, with a read-only token.'],
    tags: ['registry'],
  },
  {
    products: ['docker'],
    titles: ['failed to solve: npm ci did not complete successfully', 'docker build fails at npm ci'],
    literal: 'ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: {code}',
    details: ['package-lock.json is not copied before npm ci.', 'The base image has an older npm.'],
    fixes: ['COPY package.json package-lock.json before RUN npm ci.'],
    tags: ['build'],
  },
  {
    products: ['git'],
    titles: ['local changes would be overwritten by merge', 'git pull refuses to merge'],
    literal:
      'error: Your local changes to the following files would be overwritten by merge:\n\t{relrs}\nPlease commit your changes or stash them before you merge.',
    details: ['A generated file is tracked and rewritten by the build.'],
    fixes: ['Stash or commit first; stop tracking generated files.'],
    tags: ['merge'],
  },
  {
    products: ['git'],
    titles: ['refusing to merge unrelated histories', 'git pull after creating the repo with a README'],
    literal: 'fatal: refusing to merge unrelated histories',
    details: ['The remote was created with a README and the local repo has its own first commit.'],
    fixes: ['git pull --allow-unrelated-histories once, then resolve.'],
    tags: ['history'],
  },
  {
    products: ['kubernetes'],
    titles: ['ImagePullBackOff for {image}', 'Pod stuck pulling image'],
    literal:
      'Failed to pull image "{image}:{ver}": rpc error: code = NotFound desc = failed to pull and unpack image "{image}:{ver}": not found\nBack-off pulling image "{image}:{ver}"',
    details: ['The tag was never pushed; CI pushed only latest.'],
    fixes: ['Push the tag the deployment references, or fix the tag.'],
    tags: ['images'],
  },
  {
    products: ['nginx'],
    titles: ['upstream timed out while reading response header', 'nginx 504 from a slow backend'],
    literal:
      '{ts} [error] {pid}#{pid}: *{n} upstream timed out (110: Connection timed out) while reading response header from upstream, client: {ip}, server: _, request: "POST /api/export HTTP/1.1"',
    details: ['The export endpoint takes longer than proxy_read_timeout.'],
    fixes: ['Raise proxy_read_timeout for that location, or make the export asynchronous.'],
    tags: ['proxy'],
  },
  {
    products: ['redis', 'ioredis'],
    titles: ["OOM command not allowed when used memory > 'maxmemory'", 'Redis refuses writes at maxmemory'],
    literal: "ReplyError: OOM command not allowed when used memory > 'maxmemory'.",
    details: ['Keys have no TTL and the policy is noeviction.'],
    fixes: ['Set TTLs and a maxmemory-policy such as allkeys-lru for cache instances.'],
    tags: ['memory'],
  },
  {
    products: ['mysql'],
    titles: ["Can't connect to local MySQL server through socket", 'MySQL socket missing after restart'],
    literal: "ERROR 2002 (HY000): Can't connect to local MySQL server through socket '/var/run/mysqld/mysqld.sock' (2)",
    details: ['mysqld did not start; the error log shows a full disk.'],
    fixes: ['Check the error log, free disk space and start the service.'],
    tags: ['socket'],
  },
  {
    products: ['curl', 'openssl'],
    titles: ['SSL certificate problem: certificate has expired', 'curl fails with certificate has expired'],
    literal:
      'curl: (60) SSL certificate problem: certificate has expired\nMore details here: https://curl.se/docs/sslcerts.html',
    details: ['An old intermediate in the system store expired.'],
    fixes: ['Update ca-certificates; renew the server certificate if it is the one expired.'],
    tags: ['tls'],
  },
  {
    products: ['aws-cli', 'boto3'],
    titles: ['AccessDenied when calling PutObject', 'S3 upload denied for the deploy role'],
    literal: 'An error occurred (AccessDenied) when calling the PutObject operation: Access Denied',
    details: ['The bucket policy requires SSE-KMS and the role lacks kms:GenerateDataKey.'],
    fixes: ['Grant the KMS permission to the role and send the encryption header.'],
    tags: ['s3', 'iam'],
  },
  {
    products: ['terraform'],
    titles: ['Error acquiring the state lock', 'terraform plan blocked by a stale lock'],
    literal:
      'Error: Error acquiring the state lock\n\nLock Info:\n  ID:        {uuid}\n  Path:      acme-tf-state/{pkg}/terraform.tfstate\n  Operation: OperationTypeApply',
    details: ['A cancelled CI job left the lock behind.'],
    fixes: ['Make sure nothing runs, then terraform force-unlock with the lock ID.'],
    tags: ['state'],
  },
];

const CONTEXT = [
  'It happens on CI but not on my machine.',
  'Started after upgrading {pkg} to {ver}.',
  'Only in production, behind the load balancer.',
  'Reproduces every time after a cold start.',
  'Running in Docker on {os}.',
  'Worked yesterday; nothing changed in our code.',
  'Happens with {runtime} {ver} but not with the previous version.',
  'We run three replicas and only one shows it.',
  'The logs show it a few seconds after startup.',
  'Restarting the service makes it go away for a while.',
];
const FIX_EXTRA = [
  'Verified on {os} and in CI.',
  'After this change the error has not come back in two weeks.',
  'Rolled out to all environments.',
  'Make sure to restart the service afterwards.',
  'We also added a test that fails when this regresses.',
];
const APPLICABILITY = [
  'Applies when the service runs in containers.',
  'Applies to {runtime} {ver} and later.',
  'Only relevant on {os}.',
  'Applies to self-hosted setups.',
];
const LIMITATIONS = [
  'Does not help when the network itself is down.',
  'Adds a few seconds to startup.',
  'Not tested on Windows.',
  'Needs admin rights on the machine.',
];

const TOPICS = [
  'connection pooling',
  'retries with backoff',
  'database migrations',
  'structured logging',
  'health checks',
  'feature flags',
  'blue-green deploys',
  'secret rotation',
  'monorepo builds',
  'test flakiness',
  'rate limiting',
  'background jobs',
  'schema validation',
];
const DISCUSSION_TITLES = [
  'How do you handle {topic} in {product}?',
  'Best way to set up {topic}?',
  'Is {topic} still worth it with {product} {ver}?',
  '{topic} or {topic2} for a small team?',
  'Lessons learned from {topic} in production',
];
const DISCUSSION_BODIES = [
  'We are evaluating options and would like to hear what worked for others.',
  'Our current setup breaks under load and we are considering a rewrite.',
  'Looking for experience reports, not vendor pitches.',
  'We run {runtime} services on {os} with about {n} requests per second.',
  'Curious how this interacts with {pkg}.',
];

function sentences(r: Random, pool: readonly string[], min: number, max: number): string {
  const count = r.int(min, max);
  return Array.from({ length: count }, () => fill(r, r.pick(pool))).join(' ');
}

export function draftProblem(r: Random): ProblemDraft & { template: number } {
  const template = r.int(0, TEMPLATES.length - 1);
  const t = TEMPLATES[template]!;
  // The title names the same host, field or image as the literal it goes with.
  const seen: Record<string, string> = {};
  const errorLiteral = fill(r, t.literal, {}, seen);
  return {
    template,
    title: fill(r, r.pick(t.titles), seen),
    body: `${sentences(r, t.details, 1, 2)} ${sentences(r, CONTEXT, 1, 3)}`,
    product: r.pick(t.products),
    errorLiteral,
    tags: t.tags.filter(() => r.chance(0.7)),
  };
}

export function draftSolution(r: Random, template: number): SolutionDraft {
  const t = TEMPLATES[template]!;
  return {
    body: `${fill(r, r.pick(t.fixes))} ${sentences(r, FIX_EXTRA, 0, 2)}`.trim(),
    applicability: r.chance(0.5) ? fill(r, r.pick(APPLICABILITY)) : null,
    limitations: r.chance(0.4) ? fill(r, r.pick(LIMITATIONS)) : null,
  };
}

export function draftDiscussion(r: Random): DiscussionDraft {
  const product = r.pick(TEMPLATES).products[0]!;
  const title = fill(r, r.pick(DISCUSSION_TITLES), { topic: r.pick(TOPICS), topic2: r.pick(TOPICS), product });
  return { title, body: sentences(r, DISCUSSION_BODIES, 2, 4), product: r.chance(0.8) ? product : null };
}

/** A seeded error as another machine prints it: a fresh instance of a template's literal. */
export function sampleLiteral(r: Random): string {
  return fill(r, r.pick(TEMPLATES).literal);
}

/** The first line of a fresh literal cut at a word boundary, as a truncated log shows it. */
export function sampleTruncated(r: Random): string {
  const line = sampleLiteral(r).split('\n')[0]!;
  const words = line.split(' ');
  return words.slice(0, Math.max(2, Math.min(words.length, r.int(3, 7)))).join(' ');
}

const SYMPTOM_WORDS = [
  'fails',
  'error',
  'after',
  'deploy',
  'production',
  'docker',
  'ci',
  'intermittent',
  'startup',
  'timeout',
  'upgrade',
];

/** A short symptom in an agent's own words: words of a template's title and details, and a few of its own. */
export function sampleSymptom(r: Random): string {
  const t = r.pick(TEMPLATES);
  const words = `${fill(r, r.pick(t.titles))} ${fill(r, r.pick(t.details))}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 3);
  const picked = Array.from({ length: r.int(2, 4) }, () => r.pick(words));
  return [...new Set([...picked, r.pick(t.products), r.pick(SYMPTOM_WORDS)])].join(' ');
}
