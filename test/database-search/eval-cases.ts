/**
 * The search evaluation set: real error literals across ecosystems, each
 * stored as a problem (with one solution), and queries an agent would send
 * for it from another machine:
 * - `variant`: the same error with that machine's paths, ports, ids,
 *   addresses, times or versions (should match `exact`);
 * - `truncated`: a fragment, as pasted from a cut-off log (should match
 *   `substring`);
 * - `paraphrase`: the symptom in the agent's own words (`keywords`).
 * Used by `npm run eval:search`, test/database-search/eval.test.ts and the
 * normalization agreement test.
 */
export type QueryKind = 'variant' | 'truncated' | 'paraphrase';

export interface EvalQuery {
  kind: QueryKind;
  q: string;
}

export interface EvalCase {
  id: string;
  ecosystem: string;
  product: string;
  title: string;
  literal: string;
  body: string;
  solution: string;
  queries: EvalQuery[];
}

export const EVAL_CASES: EvalCase[] = [
  // ── node ──────────────────────────────────────────────────────────────
  {
    id: 'node-econnrefused-postgres',
    ecosystem: 'node',
    product: 'node-postgres',
    title: 'ECONNREFUSED to Postgres when the Node app starts before the database',
    literal:
      'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
    body: 'The API container starts before Postgres accepts connections, so the first pool.connect() fails and the process exits.',
    solution:
      'Add a healthcheck to the postgres service and `depends_on: condition: service_healthy`; retry pool.connect with backoff.',
    queries: [
      {
        kind: 'variant',
        q: 'Error: connect ECONNREFUSED ::1:5433\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)',
      },
      { kind: 'truncated', q: 'connect ECONNREFUSED 10.0.3.7' },
      { kind: 'paraphrase', q: 'postgres connection refused when node app boots before database' },
    ],
  },
  {
    id: 'node-cannot-find-module',
    ecosystem: 'node',
    product: 'node',
    title: 'Cannot find module after building TypeScript to dist',
    literal:
      "Error: Cannot find module '/home/runner/work/api/dist/index.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)\n    at Module._load (node:internal/modules/cjs/loader:986:27) {\n  code: 'MODULE_NOT_FOUND',\n  requireStack: []\n}",
    body: 'npm start runs node dist/index.js but the build wrote to dist/src/index.js because rootDir was not set.',
    solution:
      'Set "rootDir": "src" and "outDir": "dist" in tsconfig.json, or point the start script at dist/src/index.js.',
    queries: [
      {
        kind: 'variant',
        q: "Error: Cannot find module 'C:\\Users\\dev\\projects\\api\\dist\\index.js'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)",
      },
      { kind: 'truncated', q: "Cannot find module '/app/dist/index.js'" },
      { kind: 'paraphrase', q: 'node cannot find module dist index.js after typescript build' },
    ],
  },
  {
    id: 'node-eaddrinuse',
    ecosystem: 'node',
    product: 'express',
    title: 'EADDRINUSE: the dev server port is already taken',
    literal:
      'Error: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle [as _listen2] (node:net:1872:16)',
    body: 'Restarting the dev server with nodemon leaves the old process listening on the port.',
    solution:
      'Find the process with `lsof -i :3000` and kill it; make nodemon send SIGTERM and close the server on it.',
    queries: [
      { kind: 'variant', q: 'Error: listen EADDRINUSE: address already in use :::8080' },
      { kind: 'truncated', q: 'listen EADDRINUSE: address already in use 0.0.0.0:4000' },
      { kind: 'paraphrase', q: 'express server port already in use when restarting' },
    ],
  },
  {
    id: 'node-heap-oom',
    ecosystem: 'node',
    product: 'node',
    title: 'JavaScript heap out of memory during production build',
    literal:
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb7b3e0 node::Abort() [node]\n 2: 0xa8c8aa  [node]',
    body: 'A large webpack production build dies after a few minutes on CI runners with 7 GB of RAM.',
    solution: 'Raise the heap: NODE_OPTIONS=--max-old-space-size=6144, and turn off source maps for the CI build.',
    queries: [
      {
        kind: 'variant',
        q: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0x10003c4b5 node::Abort() [node]',
      },
      { kind: 'truncated', q: 'Allocation failed - JavaScript heap out of mem' },
      { kind: 'paraphrase', q: 'node build crashes heap out of memory' },
    ],
  },
  {
    id: 'node-cannot-read-undefined-map',
    ecosystem: 'node',
    product: 'react',
    title: "Cannot read properties of undefined (reading 'map') on first render",
    literal:
      "TypeError: Cannot read properties of undefined (reading 'map')\n    at ProductList (webpack-internal:///./src/components/ProductList.jsx:23:27)",
    body: 'The component maps over props.items before the fetch resolves, so items is undefined on the first render.',
    solution: 'Initialise state with an empty array (`useState([])`) or guard with `items?.map(...)`.',
    queries: [
      {
        kind: 'variant',
        q: 'TypeError: Cannot read properties of undefined (reading "map")\n    at ProductList (http://localhost:3001/static/js/bundle.js:412:27)',
      },
      { kind: 'truncated', q: "Cannot read properties of undefined (reading 'ma" },
      { kind: 'paraphrase', q: 'react component crashes reading map of undefined before data loads' },
    ],
  },
  {
    id: 'node-err-require-esm',
    ecosystem: 'node',
    product: 'node',
    title: 'require() of ES Module not supported after upgrading a dependency',
    literal:
      'Error [ERR_REQUIRE_ESM]: require() of ES Module /srv/app/node_modules/node-fetch/src/index.js from /srv/app/lib/http.js not supported.\nInstead change the require of index.js in /srv/app/lib/http.js to a dynamic import() which is available in all CommonJS modules.',
    body: 'node-fetch 3 is ESM-only; our CommonJS code still calls require("node-fetch").',
    solution:
      'Pin node-fetch@2, or switch to the global fetch in Node 18+, or load it with `await import("node-fetch")`.',
    queries: [
      {
        kind: 'variant',
        q: 'Error [ERR_REQUIRE_ESM]: require() of ES Module C:\\work\\svc\\node_modules\\node-fetch\\src\\index.js from C:\\work\\svc\\src\\client.js not supported.',
      },
      { kind: 'truncated', q: 'Error [ERR_REQUIRE_ESM]: require() of ES Module' },
      { kind: 'paraphrase', q: 'require of es module not supported node-fetch commonjs' },
    ],
  },
  {
    id: 'npm-eresolve',
    ecosystem: 'node',
    product: 'npm',
    title: 'npm install fails with ERESOLVE unable to resolve dependency tree',
    literal:
      'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving: my-app@0.1.0\nnpm ERR! Found: react@18.2.0',
    body: 'A UI library declares a peer dependency on react@^17 while the app uses React 18.',
    solution:
      'Upgrade the library to a release that supports React 18; as a stopgap use `npm install --legacy-peer-deps`.',
    queries: [
      {
        kind: 'variant',
        q: 'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! \nnpm ERR! While resolving: dashboard@2.3.1\nnpm ERR! Found: react@18.3.1',
      },
      { kind: 'truncated', q: 'ERESOLVE unable to resolve dependency tr' },
      { kind: 'paraphrase', q: 'npm install peer dependency conflict cannot resolve tree' },
    ],
  },
  {
    id: 'npm-eacces-global',
    ecosystem: 'node',
    product: 'npm',
    title: 'EACCES permission denied installing a global npm package',
    literal:
      "npm ERR! code EACCES\nnpm ERR! syscall mkdir\nnpm ERR! path /usr/local/lib/node_modules/typescript\nnpm ERR! errno -13\nnpm ERR! Error: EACCES: permission denied, mkdir '/usr/local/lib/node_modules/typescript'",
    body: 'npm install -g typescript fails for a normal user because the global prefix is owned by root.',
    solution:
      'Use a Node version manager (nvm, fnm) or set `npm config set prefix ~/.npm-global` and add its bin to PATH. Do not use sudo.',
    queries: [
      {
        kind: 'variant',
        q: "npm ERR! Error: EACCES: permission denied, mkdir '/opt/homebrew/lib/node_modules/eslint'",
      },
      { kind: 'truncated', q: 'npm ERR! code EACCES\nnpm ERR! syscall mkdir' },
      { kind: 'paraphrase', q: 'permission denied installing global npm package without sudo' },
    ],
  },
  {
    id: 'ts-ts2307',
    ecosystem: 'node',
    product: 'typescript',
    title: 'TS2307 cannot find module or its type declarations for a path alias',
    literal:
      "src/routes/users.ts:3:24 - error TS2307: Cannot find module '@/lib/db' or its corresponding type declarations.",
    body: 'The alias works in the bundler but tsc does not know about it.',
    solution:
      'Add `"baseUrl": "."` and `"paths": { "@/*": ["src/*"] }` to tsconfig.json (and keep the bundler alias in sync).',
    queries: [
      {
        kind: 'variant',
        q: "app/api/orders.ts:11:8 - error TS2307: Cannot find module '@/lib/db' or its corresponding type declarations.",
      },
      { kind: 'truncated', q: 'error TS2307: Cannot find module' },
      { kind: 'paraphrase', q: 'typescript path alias cannot find module type declarations' },
    ],
  },
  // ── python ────────────────────────────────────────────────────────────
  {
    id: 'python-module-not-found',
    ecosystem: 'python',
    product: 'python',
    title: "ModuleNotFoundError: No module named 'requests' inside a virtualenv",
    literal:
      'Traceback (most recent call last):\n  File "/home/ana/proj/fetch.py", line 1, in <module>\n    import requests\nModuleNotFoundError: No module named \'requests\'',
    body: 'pip install requests succeeded, but python still cannot import it: pip belonged to another interpreter.',
    solution:
      'Install with the interpreter you run: `python -m pip install requests`; check `which python` inside the venv.',
    queries: [
      {
        kind: 'variant',
        q: 'Traceback (most recent call last):\n  File "C:\\Users\\Li\\code\\fetch.py", line 3, in <module>\n    import requests\nModuleNotFoundError: No module named "requests"',
      },
      { kind: 'truncated', q: "ModuleNotFoundError: No module named 'requ" },
      { kind: 'paraphrase', q: 'python no module named requests although pip installed it' },
    ],
  },
  {
    id: 'python-ssl-cert-verify',
    ecosystem: 'python',
    product: 'requests',
    title: 'CERTIFICATE_VERIFY_FAILED behind a corporate proxy',
    literal:
      "requests.exceptions.SSLError: HTTPSConnectionPool(host='api.github.com', port=443): Max retries exceeded with url: /repos (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)')))",
    body: 'The proxy re-signs TLS with a company CA that the certifi bundle does not contain.',
    solution:
      'Point REQUESTS_CA_BUNDLE (or SSL_CERT_FILE) at a bundle that includes the company root CA. Never set verify=False.',
    queries: [
      {
        kind: 'variant',
        q: "requests.exceptions.SSLError: HTTPSConnectionPool(host='api.github.com', port=443): Max retries exceeded with url: /repos (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:992)')))",
      },
      {
        kind: 'truncated',
        q: '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer',
      },
      { kind: 'paraphrase', q: 'python requests ssl certificate verify failed local issuer proxy' },
    ],
  },
  {
    id: 'python-externally-managed',
    ecosystem: 'python',
    product: 'pip',
    title: 'pip refuses to install: externally-managed-environment',
    literal:
      'error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python packages system-wide, try apt install\n    python3-xyz, where xyz is the package you are trying to\n    install.',
    body: 'On Debian 12 and Ubuntu 23.04+ pip install into the system Python is blocked (PEP 668).',
    solution: 'Create a venv (`python3 -m venv .venv && . .venv/bin/activate`) or use pipx for tools.',
    queries: [
      { kind: 'variant', q: 'error: externally-managed-environment\n× This environment is externally managed' },
      { kind: 'truncated', q: 'This environment is externally managed' },
      { kind: 'paraphrase', q: 'pip install blocked system python externally managed debian' },
    ],
  },
  {
    id: 'python-django-no-such-table',
    ecosystem: 'python',
    product: 'django',
    title: 'django OperationalError no such table after adding a model',
    literal: 'django.db.utils.OperationalError: no such table: shop_order',
    body: 'The new model exists in code but the tests and the dev server fail on the first query.',
    solution: 'Run `python manage.py makemigrations shop` and `python manage.py migrate`; commit the migration file.',
    queries: [
      {
        kind: 'variant',
        q: '  File "/usr/local/lib/python3.12/site-packages/django/db/backends/sqlite3/base.py", line 328, in execute\n    return super().execute(query, params)\ndjango.db.utils.OperationalError: no such table: shop_order',
      },
      { kind: 'truncated', q: 'OperationalError: no such table: shop_ord' },
      { kind: 'paraphrase', q: 'django no such table new model migration missing' },
    ],
  },
  {
    id: 'python-keyerror-pandas',
    ecosystem: 'python',
    product: 'pandas',
    title: 'pandas KeyError on a column that is visible in the CSV',
    literal:
      'Traceback (most recent call last):\n  File "/opt/etl/load.py", line 57, in <module>\n    df[\'Revenue\'].sum()\n  File "/opt/etl/.venv/lib/python3.11/site-packages/pandas/core/frame.py", line 3893, in __getitem__\n    indexer = self.columns.get_loc(key)\nKeyError: \'Revenue\'',
    body: 'The header has a trailing space and a BOM, so the column is really "\\ufeffRevenue ".',
    solution: 'Read with encoding="utf-8-sig" and strip names: `df.columns = df.columns.str.strip()`.',
    queries: [
      {
        kind: 'variant',
        q: '  File "/Users/kim/etl/.venv/lib/python3.12/site-packages/pandas/core/frame.py", line 4102, in __getitem__\n    indexer = self.columns.get_loc(key)\nKeyError: \'Revenue\'',
      },
      { kind: 'truncated', q: 'indexer = self.columns.get_loc(key)' },
      { kind: 'paraphrase', q: 'pandas keyerror column exists in csv header whitespace' },
    ],
  },
  {
    id: 'python-asyncio-no-loop',
    ecosystem: 'python',
    product: 'asyncio',
    title: 'RuntimeError: There is no current event loop in thread',
    literal: "RuntimeError: There is no current event loop in thread 'Thread-1 (worker)'.",
    body: 'A worker thread calls asyncio.get_event_loop(), which no longer creates a loop outside the main thread.',
    solution:
      'Use `asyncio.run(main())` in the thread, or create one with `asyncio.new_event_loop()` and `set_event_loop`.',
    queries: [
      { kind: 'variant', q: "RuntimeError: There is no current event loop in thread 'Thread-7 (worker)'." },
      { kind: 'truncated', q: 'There is no current event loop in thread' },
      { kind: 'paraphrase', q: 'asyncio get_event_loop fails in worker thread no current loop' },
    ],
  },
  {
    id: 'python-recursion-limit',
    ecosystem: 'python',
    product: 'python',
    title: 'RecursionError: maximum recursion depth exceeded while serializing a tree',
    literal: 'RecursionError: maximum recursion depth exceeded while calling a Python object',
    body: 'A recursive to_dict() walks a parent/child graph that has a cycle.',
    solution: 'Track visited nodes (or serialize parents as ids). Raising sys.setrecursionlimit only hides the cycle.',
    queries: [
      {
        kind: 'variant',
        q: '  File "/home/kai/tree/node.py", line 31, in to_dict\n    return {"children": [c.to_dict() for c in self.children]}\n  [Previous line repeated 996 more times]\nRecursionError: maximum recursion depth exceeded while calling a Python object',
      },
      { kind: 'truncated', q: 'maximum recursion depth exceeded' },
      { kind: 'paraphrase', q: 'python recursion depth exceeded serializing cyclic tree' },
    ],
  },
  // ── go ────────────────────────────────────────────────────────────────
  {
    id: 'go-nil-pointer',
    ecosystem: 'go',
    product: 'go',
    title: 'panic: nil pointer dereference when the config file is missing',
    literal:
      'panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x4a8f2b]\n\ngoroutine 1 [running]:\nmain.loadConfig(...)\n\t/home/dev/go/src/svc/config.go:41\nmain.main()\n\t/home/dev/go/src/svc/main.go:17 +0x2f',
    body: 'loadConfig returns (nil, err) and main ignores err, then reads cfg.Port.',
    solution: 'Check the error before using the value; return a zero Config instead of nil where callers expect one.',
    queries: [
      {
        kind: 'variant',
        q: 'panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x2 addr=0x0 pc=0x1029c4e10]',
      },
      { kind: 'truncated', q: 'invalid memory address or nil pointer dereference' },
      { kind: 'paraphrase', q: 'go panic nil pointer dereference config missing' },
    ],
  },
  {
    id: 'go-concurrent-map-writes',
    ecosystem: 'go',
    product: 'go',
    title: 'fatal error: concurrent map writes in an HTTP handler cache',
    literal:
      'fatal error: concurrent map writes\n\ngoroutine 58 [running]:\nmain.(*Cache).Set(...)\n\t/src/cache.go:22',
    body: 'A package-level map is written from several request goroutines.',
    solution: 'Guard the map with a sync.RWMutex or use sync.Map; run tests with -race to find other spots.',
    queries: [
      {
        kind: 'variant',
        q: 'fatal error: concurrent map writes\n\ngoroutine 1043 [running]:\nmain.(*Cache).Set(...)\n\t/workspace/app/cache.go:31',
      },
      { kind: 'truncated', q: 'fatal error: concurrent map wri' },
      { kind: 'paraphrase', q: 'golang concurrent map writes crash in http handlers' },
    ],
  },
  {
    id: 'go-module-missing-gosum',
    ecosystem: 'go',
    product: 'go',
    title: 'missing go.sum entry for module providing package',
    literal:
      'main.go:9:2: missing go.sum entry for module providing package github.com/gorilla/mux (imported by example.com/api); to add:\n\tgo get example.com/api',
    body: 'The build in Docker fails although it works locally; go.sum was not copied before `go build`.',
    solution: 'Run `go mod tidy`, commit go.sum, and COPY go.mod go.sum before `go mod download` in the Dockerfile.',
    queries: [
      {
        kind: 'variant',
        q: 'cmd/server/main.go:12:2: missing go.sum entry for module providing package github.com/gorilla/mux (imported by example.com/api); to add:',
      },
      { kind: 'truncated', q: 'missing go.sum entry for module providing package' },
      { kind: 'paraphrase', q: 'go build docker missing go.sum entry' },
    ],
  },
  {
    id: 'go-dial-tcp-refused',
    ecosystem: 'go',
    product: 'redis',
    title: 'dial tcp connection refused to Redis from a Go service in Docker',
    literal: 'dial tcp 127.0.0.1:6379: connect: connection refused',
    body: 'Inside the container 127.0.0.1 is the container itself, not the Redis service.',
    solution: 'Connect to the compose service name (redis:6379) instead of localhost, and wait for it to be healthy.',
    queries: [
      { kind: 'variant', q: 'dial tcp [::1]:6380: connect: connection refused' },
      { kind: 'truncated', q: 'dial tcp 172.18.0.4:6379: connect: connection ref' },
      { kind: 'paraphrase', q: 'go service cannot reach redis in docker localhost refused' },
    ],
  },
  // ── rust ──────────────────────────────────────────────────────────────
  {
    id: 'rust-borrow-moved',
    ecosystem: 'rust',
    product: 'rust',
    title: 'E0382 borrow of moved value after passing a Vec to a function',
    literal:
      'error[E0382]: borrow of moved value: `items`\n --> src/main.rs:9:20\n  |\n5 |     let items = vec![1, 2, 3];\n  |         ----- move occurs because `items` has type `Vec<i32>`, which does not implement the `Copy` trait',
    body: 'The vector is passed by value to `total(items)` and used afterwards.',
    solution:
      'Pass a slice reference: `fn total(items: &[i32])` and call `total(&items)`; clone only if ownership is needed.',
    queries: [
      { kind: 'variant', q: 'error[E0382]: borrow of moved value: `items`\n --> crates/core/src/lib.rs:42:13' },
      { kind: 'truncated', q: 'error[E0382]: borrow of moved value' },
      { kind: 'paraphrase', q: 'rust borrow of moved value vec passed to function' },
    ],
  },
  {
    id: 'rust-linker-cc-not-found',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'linker `cc` not found on a fresh machine',
    literal:
      'error: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)\n\nerror: could not compile `hello` (bin "hello") due to 1 previous error',
    body: 'rustup installed the toolchain, but the system has no C toolchain for linking.',
    solution:
      'Install build tools: `sudo apt install build-essential` (Debian/Ubuntu) or `xcode-select --install` (macOS).',
    queries: [
      {
        kind: 'variant',
        q: 'error: linker `cc` not found\n  |\n  = note: No such file or directory (os error 2)\n\nerror: could not compile `api-server` (bin "api-server") due to 1 previous error',
      },
      { kind: 'truncated', q: 'error: linker `cc` not fo' },
      { kind: 'paraphrase', q: 'cargo build linker cc not found ubuntu' },
    ],
  },
  {
    id: 'rust-tokio-no-reactor',
    ecosystem: 'rust',
    product: 'tokio',
    title: 'there is no reactor running, must be called from the context of a Tokio runtime',
    literal:
      "thread 'main' panicked at 'there is no reactor running, must be called from the context of a Tokio 1.x runtime', src/db.rs:14:5",
    body: 'A sqlx pool is created in a plain fn main before the runtime starts.',
    solution:
      'Make main `#[tokio::main] async fn main()`, or build a Runtime and call `block_on` around the async setup.',
    queries: [
      {
        kind: 'variant',
        q: "thread 'main' panicked at 'there is no reactor running, must be called from the context of a Tokio 1.x runtime', crates/app/src/db.rs:88:9",
      },
      { kind: 'truncated', q: 'there is no reactor running, must be called from the context of a Tokio' },
      { kind: 'paraphrase', q: 'tokio panic no reactor running runtime context' },
    ],
  },
  {
    id: 'rust-openssl-sys',
    ecosystem: 'rust',
    product: 'cargo',
    title: 'failed to run custom build command for openssl-sys',
    literal:
      "error: failed to run custom build command for `openssl-sys v0.9.93`\n\nCaused by:\n  process didn't exit successfully: `/home/u/proj/target/debug/build/openssl-sys-6f3a9c0d1e2b4a57/build-script-main` (exit status: 101)\n  --- stderr\n  Could not find directory of OpenSSL installation",
    body: 'reqwest pulls openssl-sys, and the machine has no OpenSSL headers or pkg-config.',
    solution:
      'Install `pkg-config libssl-dev` (Debian) / `openssl-devel` (Fedora), or switch reqwest to the rustls-tls feature.',
    queries: [
      {
        kind: 'variant',
        q: "error: failed to run custom build command for `openssl-sys v0.9.102`\n\nCaused by:\n  process didn't exit successfully: `C:\\dev\\svc\\target\\release\\build\\openssl-sys-a1b2c3d4e5f60718\\build-script-main` (exit status: 101)",
      },
      { kind: 'truncated', q: 'Could not find directory of OpenSSL installation' },
      { kind: 'paraphrase', q: 'openssl-sys build fails cargo openssl not found' },
    ],
  },
  // ── java ──────────────────────────────────────────────────────────────
  {
    id: 'java-unsupported-class-version',
    ecosystem: 'java',
    product: 'java',
    title: 'UnsupportedClassVersionError: compiled by a more recent Java',
    literal:
      'Exception in thread "main" java.lang.UnsupportedClassVersionError: com/acme/App has been compiled by a more recent version of the Java Runtime (class file version 61.0), this version of the Java Runtime only recognizes class file versions up to 55.0',
    body: 'Built with JDK 17 in CI, run on a server that still has Java 11.',
    solution: 'Run with Java 17+, or compile for the older target: `maven.compiler.release=11` / `--release 11`.',
    queries: [
      {
        kind: 'variant',
        q: 'Exception in thread "main" java.lang.UnsupportedClassVersionError: com/acme/App has been compiled by a more recent version of the Java Runtime (class file version 65.0), this version of the Java Runtime only recognizes class file versions up to 61.0',
      },
      { kind: 'truncated', q: 'has been compiled by a more recent version of the Java Runtime' },
      { kind: 'paraphrase', q: 'java class compiled by more recent java runtime version error' },
    ],
  },
  {
    id: 'java-heap-space',
    ecosystem: 'java',
    product: 'java',
    title: 'OutOfMemoryError: Java heap space while importing a large file',
    literal:
      'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)\n\tat java.base/java.lang.AbstractStringBuilder.ensureCapacityInternal(AbstractStringBuilder.java:228)',
    body: 'The importer reads the whole 2 GB CSV into a StringBuilder.',
    solution: 'Stream the file line by line (BufferedReader) and batch inserts; raise -Xmx only after that.',
    queries: [
      { kind: 'variant', q: 'Exception in thread "pool-1-thread-3" java.lang.OutOfMemoryError: Java heap space' },
      { kind: 'truncated', q: 'java.lang.OutOfMemoryError: Java heap spa' },
      { kind: 'paraphrase', q: 'java out of memory heap space importing big csv' },
    ],
  },
  {
    id: 'java-spring-bean-not-found',
    ecosystem: 'java',
    product: 'spring-boot',
    title: 'Spring Boot: required a bean of type that could not be found',
    literal:
      "***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\nField userRepository in com.acme.service.UserService required a bean of type 'com.acme.repo.UserRepository' that could not be found.",
    body: 'The repository lives outside the package of the @SpringBootApplication class, so it is not scanned.',
    solution: 'Move the application class to the root package, or add @EnableJpaRepositories("com.acme.repo").',
    queries: [
      {
        kind: 'variant',
        q: "Field userRepository in com.acme.service.UserService required a bean of type 'com.acme.repo.UserRepository' that could not be found.",
      },
      { kind: 'truncated', q: 'required a bean of type' },
      { kind: 'paraphrase', q: 'spring boot application failed to start bean could not be found repository' },
    ],
  },
  {
    id: 'java-gradle-daemon-incompatible',
    ecosystem: 'java',
    product: 'gradle',
    title: 'Gradle: Unsupported class file major version 65',
    literal:
      "BUG! exception in phase 'semantic analysis' in source unit '_BuildScript_' Unsupported class file major version 65",
    body: 'The project uses Gradle 7.6 and the machine runs JDK 21.',
    solution:
      'Upgrade the wrapper (`./gradlew wrapper --gradle-version 8.5`) or run Gradle with JDK 17 (org.gradle.java.home).',
    queries: [
      {
        kind: 'variant',
        q: "* What went wrong:\nCould not open cps generic class cache for build file '/Users/ren/proj/build.gradle' (/Users/ren/.gradle/caches/7.6.1/scripts/8a9b0c1d2e3f).\nBUG! exception in phase 'semantic analysis' in source unit '_BuildScript_' Unsupported class file major version 65",
      },
      { kind: 'truncated', q: 'Unsupported class file major version' },
      { kind: 'paraphrase', q: 'gradle build fails new jdk unsupported class file major version' },
    ],
  },
  {
    id: 'java-npe-helpful',
    ecosystem: 'java',
    product: 'java',
    title: 'NullPointerException: Cannot invoke String.length() because value is null',
    literal:
      'java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null\n\tat com.acme.util.Text.isBlank(Text.java:12)',
    body: 'Text.isBlank is called with a null from an optional JSON field.',
    solution: 'Treat null as blank (`s == null || s.isBlank()`), or use Objects.requireNonNullElse at the boundary.',
    queries: [
      {
        kind: 'variant',
        q: 'java.lang.NullPointerException: Cannot invoke "String.length()" because "<local1>" is null\n\tat com.acme.util.Text.isBlank(Text.java:19)',
      },
      { kind: 'truncated', q: 'Cannot invoke "String.length()" because' },
      { kind: 'paraphrase', q: 'java null pointer exception cannot invoke string length' },
    ],
  },
  // ── postgres ──────────────────────────────────────────────────────────
  {
    id: 'pg-unique-violation',
    ecosystem: 'postgres',
    product: 'postgresql',
    title: 'duplicate key value violates unique constraint on insert after restore',
    literal:
      'ERROR:  duplicate key value violates unique constraint "users_pkey"\nDETAIL:  Key (id)=(1042) already exists.',
    body: 'After restoring a dump, inserts fail because the id sequence was reset to 1.',
    solution: "Reset the sequence: SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users));",
    queries: [
      {
        kind: 'variant',
        q: 'ERROR:  duplicate key value violates unique constraint "users_pkey"\nDETAIL:  Key (id)=(87311) already exists.',
      },
      { kind: 'truncated', q: 'duplicate key value violates unique constraint "users_pk' },
      { kind: 'paraphrase', q: 'postgres duplicate key primary key after restoring dump sequence' },
    ],
  },
  {
    id: 'pg-password-auth-failed',
    ecosystem: 'postgres',
    product: 'postgresql',
    title: 'password authentication failed for user postgres in Docker',
    literal:
      'psql: error: connection to server at "localhost" (127.0.0.1), port 5432 failed: FATAL:  password authentication failed for user "postgres"',
    body: 'POSTGRES_PASSWORD was changed in compose but the volume already had a cluster with the old password.',
    solution: 'POSTGRES_PASSWORD only applies to an empty data dir: change it with ALTER USER, or remove the volume.',
    queries: [
      {
        kind: 'variant',
        q: 'psql: error: connection to server at "db.internal" (10.1.2.3), port 6432 failed: FATAL:  password authentication failed for user "postgres"',
      },
      { kind: 'truncated', q: 'FATAL:  password authentication failed for user' },
      { kind: 'paraphrase', q: 'postgres docker password authentication failed after changing env' },
    ],
  },
  {
    id: 'pg-too-many-clients',
    ecosystem: 'postgres',
    product: 'postgresql',
    title: 'FATAL: sorry, too many clients already under load',
    literal: 'FATAL:  sorry, too many clients already',
    body: 'Each serverless function instance opens its own pool of 10 connections.',
    solution:
      'Put PgBouncer (transaction pooling) in front, lower per-instance pool size, or raise max_connections moderately.',
    queries: [
      { kind: 'variant', q: 'error: sorry, too many clients already' },
      { kind: 'truncated', q: 'too many clients alr' },
      { kind: 'paraphrase', q: 'postgres too many connections serverless pool exhausted' },
    ],
  },
  {
    id: 'pg-relation-does-not-exist',
    ecosystem: 'postgres',
    product: 'postgresql',
    title: 'relation does not exist for a table created with quoted mixed-case name',
    literal:
      'ERROR:  relation "userprofiles" does not exist\nLINE 1: SELECT * FROM UserProfiles WHERE id = $1\n                      ^',
    body: 'The ORM created "UserProfiles" with quotes; unquoted identifiers are folded to lower case.',
    solution: 'Quote the name exactly ("UserProfiles") or rename the table to snake_case lower case.',
    queries: [
      {
        kind: 'variant',
        q: 'ERROR:  relation "userprofiles" does not exist\nLINE 3: SELECT * FROM UserProfiles WHERE id = $1',
      },
      { kind: 'truncated', q: 'relation "userprofiles" does not' },
      { kind: 'paraphrase', q: 'postgres relation does not exist mixed case table name quotes' },
    ],
  },
  // ── docker ────────────────────────────────────────────────────────────
  {
    id: 'docker-socket-permission',
    ecosystem: 'docker',
    product: 'docker',
    title: 'permission denied connecting to the Docker daemon socket',
    literal:
      'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json": dial unix /var/run/docker.sock: connect: permission denied',
    body: 'A fresh Linux install: docker ps works with sudo only.',
    solution:
      'Add the user to the docker group (`sudo usermod -aG docker $USER`) and log in again; know it grants root-equivalent access.',
    queries: [
      {
        kind: 'variant',
        q: 'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get "http://%2Fvar%2Frun%2Fdocker.sock/v1.45/containers/json": dial unix /var/run/docker.sock: connect: permission denied',
      },
      { kind: 'truncated', q: 'permission denied while trying to connect to the Docker daemon socket' },
      { kind: 'paraphrase', q: 'docker ps permission denied without sudo daemon socket' },
    ],
  },
  {
    id: 'docker-container-name-conflict',
    ecosystem: 'docker',
    product: 'docker',
    title: 'Conflict: the container name is already in use',
    literal:
      'docker: Error response from daemon: Conflict. The container name "/pg-dev" is already in use by container "8d2f7a4c1b9e0f3a6c5d4e2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2". You have to remove (or rename) that container to be able to reuse that name.',
    body: 'The run script uses --name and the previous container was stopped, not removed.',
    solution: 'Use `docker run --rm`, or `docker rm -f pg-dev` before running again.',
    queries: [
      {
        kind: 'variant',
        q: 'docker: Error response from daemon: Conflict. The container name "/pg-dev" is already in use by container "1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0". You have to remove (or rename) that container to be able to reuse that name.',
      },
      { kind: 'truncated', q: 'is already in use by container' },
      { kind: 'paraphrase', q: 'docker run container name already in use conflict' },
    ],
  },
  {
    id: 'docker-no-space',
    ecosystem: 'docker',
    product: 'docker',
    title: 'no space left on device during docker build',
    literal:
      'failed to copy files: userspace copy failed: write /var/lib/docker/overlay2/k3j2h1g0f9e8d7c6b5a4/merged/app/node_modules/.cache/data.bin: no space left on device',
    body: 'Old images and build cache fill the disk of the CI runner.',
    solution: 'Run `docker system prune -af` and `docker builder prune`; add a .dockerignore for node_modules.',
    queries: [
      {
        kind: 'variant',
        q: 'failed to copy files: userspace copy failed: write /mnt/docker-data/overlay2/zz99yy88xx77/merged/app/node_modules/.cache/data.bin: no space left on device',
      },
      { kind: 'truncated', q: 'userspace copy failed: write' },
      { kind: 'paraphrase', q: 'docker build no space left on device disk full' },
    ],
  },
  {
    id: 'docker-exec-format',
    ecosystem: 'docker',
    product: 'docker',
    title: 'exec format error running an image built on Apple Silicon',
    literal: 'exec /usr/local/bin/docker-entrypoint.sh: exec format error',
    body: 'The image was built on an M1 Mac (arm64) and deployed to an amd64 server.',
    solution: 'Build for the target: `docker buildx build --platform linux/amd64`, or publish a multi-arch image.',
    queries: [
      { kind: 'variant', q: 'exec /app/entrypoint.sh: exec format error' },
      { kind: 'truncated', q: 'exec format err' },
      { kind: 'paraphrase', q: 'docker image built on m1 mac fails on amd64 server exec format' },
    ],
  },
  // ── git ───────────────────────────────────────────────────────────────
  {
    id: 'git-non-fast-forward',
    ecosystem: 'git',
    product: 'git',
    title: 'push rejected: non-fast-forward, updates were rejected',
    literal:
      " ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/site.git'\nhint: Updates were rejected because the tip of your current branch is behind",
    body: 'Someone pushed to main after my last pull.',
    solution:
      'Integrate first: `git pull --rebase origin main`, resolve conflicts, then push. Do not force-push shared branches.',
    queries: [
      {
        kind: 'variant',
        q: "error: failed to push some refs to 'https://gitlab.com/team/api.git'\nhint: Updates were rejected because the tip of your current branch is behind",
      },
      { kind: 'truncated', q: 'Updates were rejected because the tip of your current branch is behind' },
      { kind: 'paraphrase', q: 'git push rejected branch behind remote non fast forward' },
    ],
  },
  {
    id: 'git-dubious-ownership',
    ecosystem: 'git',
    product: 'git',
    title: 'fatal: detected dubious ownership in repository',
    literal:
      "fatal: detected dubious ownership in repository at '/workspace/app'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory /workspace/app",
    body: 'In a CI container the checkout is owned by another uid than the user running git.',
    solution: 'Add the path to safe.directory for that user, or run the job as the owner of the checkout.',
    queries: [
      { kind: 'variant', q: "fatal: detected dubious ownership in repository at 'C:/Users/build/agent/_work/1/s'" },
      { kind: 'truncated', q: 'detected dubious ownership in repos' },
      { kind: 'paraphrase', q: 'git dubious ownership safe directory ci container' },
    ],
  },
  {
    id: 'git-ssh-publickey',
    ecosystem: 'git',
    product: 'git',
    title: 'Permission denied (publickey) when cloning over SSH',
    literal:
      'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.',
    body: 'The key exists in ~/.ssh but the agent does not offer it.',
    solution:
      'Load it with `ssh-add ~/.ssh/id_ed25519`, check with `ssh -T git@github.com`, and add the public key to the account.',
    queries: [
      {
        kind: 'variant',
        q: 'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
      },
      { kind: 'truncated', q: 'Permission denied (publickey)' },
      { kind: 'paraphrase', q: 'git clone ssh permission denied publickey github' },
    ],
  },
  {
    id: 'git-index-lock',
    ecosystem: 'git',
    product: 'git',
    title: 'Unable to create index.lock: File exists',
    literal:
      "fatal: Unable to create '/home/sam/repo/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository",
    body: 'An editor integration crashed while running git status.',
    solution: 'Make sure no git process runs (`ps aux | grep git`), then delete .git/index.lock.',
    queries: [
      { kind: 'variant', q: "fatal: Unable to create 'D:\\src\\monorepo\\.git\\index.lock': File exists." },
      { kind: 'truncated', q: "index.lock': File exists" },
      { kind: 'paraphrase', q: 'git index lock file exists another git process running' },
    ],
  },
  // ── more ecosystems ───────────────────────────────────────────────────
  {
    id: 'k8s-crashloop-oomkilled',
    ecosystem: 'kubernetes',
    product: 'kubernetes',
    title: 'Pod in CrashLoopBackOff, last state OOMKilled',
    literal:
      '    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n      Started:      Mon, 04 Mar 2024 09:12:44 +0000\n      Finished:     Mon, 04 Mar 2024 09:13:02 +0000',
    body: 'The JVM sizes its heap from the node memory, not the container limit of 512Mi.',
    solution: 'Set -XX:MaxRAMPercentage=75 (or an explicit -Xmx below the limit) and raise the memory limit if needed.',
    queries: [
      { kind: 'variant', q: 'Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137' },
      { kind: 'truncated', q: 'Reason:       OOMKilled' },
      { kind: 'paraphrase', q: 'kubernetes pod crashloopbackoff oomkilled exit code 137 memory limit' },
    ],
  },
  {
    id: 'ssh-host-key-changed',
    ecosystem: 'ssh',
    product: 'openssh',
    title: 'REMOTE HOST IDENTIFICATION HAS CHANGED after rebuilding a server',
    literal:
      '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\nOffending ECDSA key in /home/ops/.ssh/known_hosts:14',
    body: 'The VM was recreated with the same IP and a new host key.',
    solution: 'Verify the new fingerprint out of band, then `ssh-keygen -R <host>` to drop the old key.',
    queries: [
      {
        kind: 'variant',
        q: 'WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!\nIT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!\nOffending ED25519 key in /Users/me/.ssh/known_hosts:3',
      },
      { kind: 'truncated', q: 'REMOTE HOST IDENTIFICATION HAS CHANGED' },
      { kind: 'paraphrase', q: 'ssh warning remote host identification changed known_hosts' },
    ],
  },
  {
    id: 'mysql-access-denied',
    ecosystem: 'mysql',
    product: 'mysql',
    title: "Access denied for user 'root'@'localhost' on a fresh install",
    literal: "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
    body: 'Ubuntu MySQL 8 uses auth_socket for root, so password logins fail.',
    solution: 'Log in with `sudo mysql` and create an app user with a password instead of using root.',
    queries: [
      { kind: 'variant', q: "ERROR 1045 (28000): Access denied for user 'root'@'172.17.0.1' (using password: YES)" },
      { kind: 'truncated', q: "Access denied for user 'root'@" },
      { kind: 'paraphrase', q: 'mysql root access denied using password fresh ubuntu install' },
    ],
  },
  {
    id: 'nginx-502-upstream',
    ecosystem: 'nginx',
    product: 'nginx',
    title: '502 Bad Gateway: connect() failed (111: Connection refused) while connecting to upstream',
    literal:
      '2024/03/05 10:21:33 [error] 2917#2917: *41 connect() failed (111: Connection refused) while connecting to upstream, client: 203.0.113.9, server: example.com, request: "GET / HTTP/1.1", upstream: "http://127.0.0.1:3000/", host: "example.com"',
    body: 'The Node app listens on a different port than proxy_pass after a config change.',
    solution: 'Make proxy_pass and the app port agree, and check the app is running (`ss -ltnp`).',
    queries: [
      {
        kind: 'variant',
        q: '2025/01/17 22:04:09 [error] 88#88: *7 connect() failed (111: Connection refused) while connecting to upstream, client: 198.51.100.23, server: example.com, request: "GET / HTTP/1.1", upstream: "http://127.0.0.1:8000/", host: "example.com"',
      },
      { kind: 'truncated', q: 'connect() failed (111: Connection refused) while connecting to upstream' },
      { kind: 'paraphrase', q: 'nginx 502 bad gateway upstream connection refused' },
    ],
  },
  {
    id: 'redis-misconf-rdb',
    ecosystem: 'redis',
    product: 'redis',
    title: 'MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist',
    literal:
      'MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option).',
    body: 'The disk of the Redis host is full, so BGSAVE fails and writes are refused.',
    solution:
      'Free disk space (or fix permissions of dir), then check `INFO persistence`; do not just disable stop-writes-on-bgsave-error.',
    queries: [
      {
        kind: 'variant',
        q: '(error) MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk. Commands that may modify the data set are disabled, because this instance is configured to report errors during writes if RDB snapshotting fails (stop-writes-on-bgsave-error option).',
      },
      { kind: 'truncated', q: 'currently not able to persist on disk' },
      { kind: 'paraphrase', q: 'redis writes disabled cannot persist rdb snapshot disk' },
    ],
  },
  {
    id: 'ruby-bundler-version',
    ecosystem: 'ruby',
    product: 'bundler',
    title: "Could not find 'bundler' (2.4.10) required by your Gemfile.lock",
    literal:
      "Could not find 'bundler' (2.4.10) required by your /srv/app/Gemfile.lock. (Gem::GemNotFoundException)\nTo update to the latest version installed on your system, run `bundle update --bundler`.\nTo install the missing version, run `gem install bundler:2.4.10`",
    body: 'The deploy image has a different bundler than the one that wrote the lockfile.',
    solution: 'Install the locked version (`gem install bundler:<version from BUNDLED WITH>`) in the image.',
    queries: [
      {
        kind: 'variant',
        q: "Could not find 'bundler' (2.5.3) required by your /home/deploy/app/Gemfile.lock. (Gem::GemNotFoundException)",
      },
      { kind: 'truncated', q: "Could not find 'bundler'" },
      { kind: 'paraphrase', q: 'bundler version required by gemfile lock not found deploy' },
    ],
  },
  {
    id: 'php-memory-exhausted',
    ecosystem: 'php',
    product: 'composer',
    title: 'Allowed memory size exhausted running composer update',
    literal:
      'PHP Fatal error:  Allowed memory size of 1610612736 bytes exhausted (tried to allocate 4096 bytes) in phar:///usr/local/bin/composer/src/Composer/DependencyResolver/Solver.php on line 223',
    body: 'composer update on a large project runs out of the 1.5G memory_limit.',
    solution:
      'Run `COMPOSER_MEMORY_LIMIT=-1 composer update`, or update one package at a time with --with-dependencies.',
    queries: [
      {
        kind: 'variant',
        q: 'PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) in phar:///usr/bin/composer/src/Composer/DependencyResolver/Solver.php on line 211',
      },
      { kind: 'truncated', q: 'Allowed memory size of 1610612736 bytes exhausted' },
      { kind: 'paraphrase', q: 'composer update php memory exhausted' },
    ],
  },
  {
    id: 'dotnet-sdk-not-found',
    ecosystem: 'dotnet',
    product: 'dotnet',
    title: 'A compatible .NET SDK was not found (global.json)',
    literal:
      'A compatible .NET SDK was not found.\n\nRequested SDK version: 8.0.100\nglobal.json file: /home/runner/work/api/global.json\n\nInstalled SDKs:\n7.0.404 [/usr/share/dotnet/sdk]',
    body: 'global.json pins an SDK the CI image does not have.',
    solution:
      'Install the pinned SDK (actions/setup-dotnet with global-json-file) or relax rollForward to latestFeature.',
    queries: [
      {
        kind: 'variant',
        q: 'A compatible .NET SDK was not found.\n\nRequested SDK version: 8.0.204\nglobal.json file: C:\\src\\api\\global.json',
      },
      { kind: 'truncated', q: 'A compatible .NET SDK was not fou' },
      { kind: 'paraphrase', q: 'dotnet sdk version from global.json not installed' },
    ],
  },
  {
    id: 'webpack-module-not-found',
    ecosystem: 'node',
    product: 'webpack',
    title: "Module not found: Error: Can't resolve 'fs' in a browser bundle",
    literal:
      "Module not found: Error: Can't resolve 'fs' in '/home/ci/app/node_modules/dotenv/lib'\n\nBREAKING CHANGE: webpack < 5 used to include polyfills for node.js core modules by default.",
    body: 'A server-only package (dotenv) is imported from client code.',
    solution:
      'Do not import dotenv in browser code; inject env at build time (DefinePlugin) or set resolve.fallback: { fs: false }.',
    queries: [
      {
        kind: 'variant',
        q: "Module not found: Error: Can't resolve 'fs' in 'C:\\Users\\ana\\web\\node_modules\\dotenv\\lib'",
      },
      { kind: 'truncated', q: "Can't resolve 'fs' in" },
      { kind: 'paraphrase', q: 'webpack 5 cannot resolve fs polyfill browser bundle' },
    ],
  },
  {
    id: 'linux-inotify-enospc',
    ecosystem: 'linux',
    product: 'webpack',
    title: 'ENOSPC: System limit for number of file watchers reached',
    literal: "Error: ENOSPC: System limit for number of file watchers reached, watch '/home/dev/app/src'",
    body: 'A dev server in a large monorepo exceeds fs.inotify.max_user_watches.',
    solution:
      'Raise it: `echo fs.inotify.max_user_watches=524288 | sudo tee -a /etc/sysctl.conf && sudo sysctl -p`; ignore node_modules in the watcher.',
    queries: [
      {
        kind: 'variant',
        q: "Error: ENOSPC: System limit for number of file watchers reached, watch '/workspaces/monorepo/packages/web/public'",
      },
      { kind: 'truncated', q: 'System limit for number of file watchers reac' },
      { kind: 'paraphrase', q: 'dev server file watchers limit reached inotify linux' },
    ],
  },
];

/**
 * Near-misses stored next to the cases: the same error words in another
 * setting, so ranking (not just matching) decides the first place.
 */
export const EVAL_DISTRACTORS: Array<Omit<EvalCase, 'queries' | 'id'>> = [
  {
    ecosystem: 'node',
    product: 'ioredis',
    title: 'ECONNREFUSED to Redis on startup in tests',
    literal: 'Error: connect ECONNREFUSED 127.0.0.1:6379',
    body: 'The test suite starts before the Redis container.',
    solution: 'Start Redis in globalSetup and wait for PONG.',
  },
  {
    ecosystem: 'node',
    product: 'node',
    title: 'Cannot find module express after cloning the repo',
    literal: "Error: Cannot find module 'express'\nRequire stack:\n- /srv/app/server.js",
    body: 'node_modules was not installed.',
    solution: 'Run npm install (or npm ci) first.',
  },
  {
    ecosystem: 'node',
    product: 'vue',
    title: "Cannot read properties of undefined (reading 'length')",
    literal: "TypeError: Cannot read properties of undefined (reading 'length')",
    body: 'A computed property reads a prop that is not passed.',
    solution: 'Give the prop a default.',
  },
  {
    ecosystem: 'python',
    product: 'python',
    title: "ModuleNotFoundError: No module named 'numpy' in Jupyter",
    literal: "ModuleNotFoundError: No module named 'numpy'",
    body: 'The notebook kernel is another interpreter than the shell.',
    solution: 'Install into the kernel: %pip install numpy.',
  },
  {
    ecosystem: 'postgres',
    product: 'postgresql',
    title: 'duplicate key value violates unique constraint on email',
    literal:
      'ERROR:  duplicate key value violates unique constraint "users_email_key"\nDETAIL:  Key (email)=(a@example.com) already exists.',
    body: 'Sign-up races create the same user twice.',
    solution: 'INSERT ... ON CONFLICT (email) DO NOTHING and handle it.',
  },
  {
    ecosystem: 'docker',
    product: 'docker',
    title: 'permission denied on a bind-mounted volume',
    literal: "mkdir: cannot create directory '/data/pg': Permission denied",
    body: 'The host directory is owned by root.',
    solution: 'chown the directory to the container uid.',
  },
  {
    ecosystem: 'git',
    product: 'git',
    title: 'push rejected by a pre-receive hook',
    literal:
      " ! [remote rejected] main -> main (pre-receive hook declined)\nerror: failed to push some refs to 'git.acme.io:web.git'",
    body: 'Branch protection forbids direct pushes to main.',
    solution: 'Open a merge request instead.',
  },
  {
    ecosystem: 'go',
    product: 'go',
    title: 'dial tcp i/o timeout calling an external API',
    literal: 'dial tcp 93.184.216.34:443: i/o timeout',
    body: 'The egress firewall drops traffic.',
    solution: 'Allow egress or use the proxy.',
  },
  {
    ecosystem: 'java',
    product: 'java',
    title: 'OutOfMemoryError: Metaspace after many redeploys',
    literal: 'java.lang.OutOfMemoryError: Metaspace',
    body: 'Classloaders leak on each hot redeploy.',
    solution: 'Restart instead of hot redeploy; find the leaking ThreadLocal.',
  },
  {
    ecosystem: 'rust',
    product: 'rust',
    title: 'E0499 cannot borrow as mutable more than once',
    literal: 'error[E0499]: cannot borrow `v` as mutable more than once at a time',
    body: 'Two iter_mut borrows overlap.',
    solution: 'Split the borrow with split_at_mut.',
  },
];
