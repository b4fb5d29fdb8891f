/**
 * Public error literals from npm, yarn, pnpm and Node tooling, each with the
 * address of the thread it was posted in.
 */
import type { PublicCase } from '../eval-cases-public.ts';

export const NPM_CASES: PublicCase[] = [
  {
    id: 'pub2-npm1-enoent-package-json-errno34', source: 'https://github.com/npm/npm/issues/8049', ecosystem: 'node', product: 'npm',
    title: 'npm test in a home directory with no package.json (npm 1.4)',
    literal: 'npm ERR! path /home/linaro/package.json\nnpm ERR! code ENOENT\nnpm ERR! errno 34\nnpm ERR!\nnpm ERR! Additional logging details can be found in:\nnpm ERR!     /home/linaro/npm-debug.log\nnpm ERR! not ok code 0',
    body: 'npm test was run outside any project, so there is no package.json and no test script.',
    solution: 'cd into the project directory, or create one with npm init.',
    symptom: 'old npm test errno 34 no package json in home directory',
  },
  {
    id: 'pub2-npm9-could-not-read-package-json', source: 'https://github.com/debug-js/debug/issues/949', ecosystem: 'node', product: 'npm',
    title: 'npm start: could not read package.json (wrong folder on Windows)',
    literal: "npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! path C:\\Users\\sahar\\Desktop\\myCode\\jonas_React_course\\React_Jonas_20_10_2023\\project_pizza-menu\\package.json\nnpm ERR! errno -4058\nnpm ERR! enoent Could not read package.json: Error: ENOENT: no such file or directory, open 'C:\\Users\\sahar\\Desktop\\myCode\\jonas_React_course\\React_Jonas_20_10_2023\\project_pizza-menu\\package.json'\nnpm ERR! enoent This is related to npm not being able to find a file.",
    body: 'The terminal is in a parent folder of the React project; npm looks for package.json in the current directory.',
    solution: 'cd into the folder that holds package.json before npm start.',
    symptom: 'npm start could not read package json errno -4058 windows',
  },
  {
    id: 'pub2-npm1-install-couldnt-read-dependencies', source: 'https://github.com/npm/npm/issues/7169', ecosystem: 'node', product: 'npm',
    title: "npm install from the home folder: couldn't read dependencies",
    literal: "4 error install Couldn't read dependencies\n5 error Error: ENOENT, open '/home/geclos/package.json'",
    body: 'npm install with no arguments needs a package.json in the current directory; the Ubuntu apt npm was run from the home folder.',
    solution: 'Run npm install inside the project, or name the package to install.',
    symptom: 'npm install couldnt read dependencies ubuntu apt npm',
  },
  {
    id: 'pub2-npm3-enoent-not-a-problem-with-npm', source: 'https://github.com/npm/npm/issues/10740', ecosystem: 'node', product: 'npm',
    title: 'npm start on macOS: no package.json in the current directory (npm 3)',
    literal: "npm ERR! enoent ENOENT: no such file or directory, open '/Users/Jerry/package.json'\nnpm ERR! enoent This is most likely not a problem with npm itself\nnpm ERR! enoent and is related to npm not being able to find a file.",
    body: 'npm start was run in the home directory instead of the project.',
    solution: 'cd into the project that defines the start script.',
    symptom: 'npm start most likely not a problem with npm itself enoent',
  },
  {
    id: 'pub2-npm-warn-enoent-supertest', source: 'https://github.com/debug-js/debug/issues/261', ecosystem: 'node', product: 'npm',
    title: 'npm warns that a dependency package.json is missing from node_modules',
    literal: "npm WARN enoent ENOENT: no such file or directory, open '<root>/node_modules/supertest/package.json'",
    body: 'A half-installed dependency folder has no package.json, so npm ls and install warn about it.',
    solution: 'Delete node_modules and the lockfile of the broken state and reinstall.',
    symptom: 'npm warn enoent supertest package json missing in node_modules',
  },
];

export const NODE_MODULE_CASES: PublicCase[] = [
  {
    id: 'pub2-node04-cannot-find-long-stack-traces', source: 'https://github.com/tlrobinson/long-stack-traces/issues/4', ecosystem: 'node', product: 'node',
    title: 'require("long-stack-traces") cannot find the module on node 0.4',
    literal: "Error: Cannot find module 'long-stack-traces'\n    at Function._resolveFilename (module.js:299:11)\n    at Function._load (module.js:245:25)\n    at require (module.js:327:19)",
    body: 'The package was installed in another directory than the one node resolves from.',
    solution: 'npm install long-stack-traces in the project (or set NODE_PATH).',
    symptom: 'node cannot require long stack traces package',
  },
  {
    id: 'pub2-node-cannot-find-express-session', source: 'https://github.com/Colt/YelpCamp/issues/18', ecosystem: 'node', product: 'node',
    title: 'YelpCamp crashes: express-session is not installed',
    literal: "Error: Cannot find module 'express-session'\nRequire stack:\n- C:\\Users\\Ryzen7-5800H\\Desktop\\YelpCamp\\app.js\n    at Function.Module._resolveFilename (node:internal/modules/cjs/loader:933:15)",
    body: 'app.js requires express-session but it is missing from package.json, so npm install never fetched it.',
    solution: 'npm install express-session (and save it to package.json).',
    symptom: 'nodemon app crashed express session module missing',
  },
  {
    id: 'pub2-node06-cannot-find-journey', source: 'https://github.com/cloudhead/journey/issues/24', ecosystem: 'node', product: 'node',
    title: 'Old node: cannot find module journey, thrown on first tick',
    literal: "node.js:201\n        throw e; // process.nextTick error, or 'error' event on first tick\n              ^\nError: Cannot find module 'journey'",
    body: 'The router package was not installed where the script runs.',
    solution: 'npm install journey in the script directory.',
    symptom: 'process nexttick error on first tick cannot find journey',
  },
  {
    id: 'pub2-node-cannot-find-relative-config-ssl', source: 'https://github.com/SilkePilon/KnowledgeBook/issues/100', ecosystem: 'node', product: 'node',
    title: 'npm run setup-https: relative module ./config/ssl missing',
    literal: "Error: Cannot find module './config/ssl'\nRequire stack:\n- C:\\Users\\kikin\\KnowledgeBook\\backend\\scripts\\setup-https.js\n    at Function._resolveFilename (node:internal/modules/cjs/loader:1401:15)\n    at defaultResolveImpl (node:internal/modules/cjs/loader:1057:19)",
    body: 'The setup script requires ./config/ssl relative to scripts/, where no such file exists.',
    solution: 'Fix the require path (../config/ssl) or add the missing config module.',
    symptom: 'setup https script cannot find config ssl module',
  },
];

/** Node 17+ with OpenSSL 3 and old webpack hashing: the same failure through different tools. */
export const NODE_OPENSSL_CASES: PublicCase[] = [
  {
    id: 'pub2-ossl-stack-two-entries-node20', source: 'https://github.com/jherr/wp5-intro-video-code/pull/27', ecosystem: 'node', product: 'webpack',
    title: 'webpack 4 project on Node 20: opensslErrorStack with initialization error and unsupported',
    literal: "opensslErrorStack: [\n    'error:03000086:digital envelope routines::initialization error',\n    'error:0308010C:digital envelope routines::unsupported'\n  ],\n  library: 'digital envelope routines',\n  reason: 'unsupported',\n  code: 'ERR_OSSL_EVP_UNSUPPORTED'",
    body: 'Webpack 4 hashes with MD4, which OpenSSL 3 in Node 17+ only offers through the legacy provider.',
    solution: 'Upgrade to webpack 5 (or set NODE_OPTIONS=--openssl-legacy-provider as a stopgap).',
    symptom: 'module federation demo fails to start node 20 openssl unsupported',
  },
  {
    id: 'pub2-ossl-react-scripts-createhash', source: 'https://github.com/jokenox/Goopt/issues/4', ecosystem: 'node', product: 'react-scripts',
    title: 'Create React App 4 dev server on Node 17: createHash unsupported',
    literal: "Error: error:0308010C:digital envelope routines::unsupported\n    at new Hash (node:internal/crypto/hash:67:19)\n    at Object.createHash (node:crypto:130:10)\n    at module.exports (/Users/leotreasure/Goopt/node_modules/webpack/lib/util/createHash.js:135:53)",
    body: 'react-scripts 4 bundles webpack 4, whose MD4 hashing fails under OpenSSL 3.',
    solution: 'Upgrade react-scripts to 5, or run on Node 16 (or with --openssl-legacy-provider).',
    symptom: 'create react app npm start node 17 digital envelope routines unsupported',
  },
  {
    id: 'pub2-ossl-stack-one-entry-craco', source: 'https://github.com/boidushya/boidushya.com/issues/8', ecosystem: 'node', product: 'craco',
    title: 'craco start after npm install: ERR_OSSL_EVP_UNSUPPORTED',
    literal: "opensslErrorStack: [ 'error:03000086:digital envelope routines::initialization error' ],\n  library: 'digital envelope routines',\n  reason: 'unsupported',\n  code: 'ERR_OSSL_EVP_UNSUPPORTED'",
    body: 'The craco/webpack 4 toolchain uses a hash OpenSSL 3 disables by default.',
    solution: 'export NODE_OPTIONS=--openssl-legacy-provider (PowerShell: $env:NODE_OPTIONS=...), or upgrade the toolchain.',
    symptom: 'craco start err ossl evp unsupported after clone',
  },
  {
    id: 'pub2-ossl-webpack-dev-server-8080', source: 'https://github.com/brunosimon/folio-2019/issues/35', ecosystem: 'node', product: 'webpack-dev-server',
    title: 'webpack-dev-server starts on :8080, then fails in crypto hash',
    literal: "node:internal/crypto/hash:71\n  this[kHandle] = new _Hash(algorithm, xofLen);\n                  ^\n\nError: error:0308010C:digital envelope routines::unsupported",
    body: 'On Windows, "set NODE_OPTIONS=... &&" in the npm script does not reach webpack, so the legacy provider is not enabled.',
    solution: 'Use cross-env NODE_OPTIONS=--openssl-legacy-provider in the script, or upgrade webpack.',
    symptom: 'webpack dev server new _hash algorithm unsupported windows set node_options',
  },
  {
    id: 'pub2-ossl-taro-compiling', source: 'https://github.com/SyMind/taro2-to-3/issues/6', ecosystem: 'node', product: 'taro',
    title: 'Taro 3 build after migration: compiling fails with digital envelope routines',
    literal: '正在编译...Error: error:0308010C:digital envelope routines::unsupported',
    body: 'The migrated Taro project builds with webpack 4 on Node 17+, which uses OpenSSL 3.',
    solution: 'Build on Node 16 or add the legacy OpenSSL provider.',
    symptom: 'taro compile error digital envelope routines unsupported',
  },
];
