/**
 * Public error literals from browsers and front-end tooling, each with the
 * address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

export const BROWSER_CASES: PublicCase[] = [
  {
    id: 'pub2-cors-fetch-blocked-markdown',
    source: 'https://github.com/egoist/loglive/issues/6',
    ecosystem: 'browser',
    product: 'loglive',
    title: 'loglive cannot fetch a markdown file from another origin',
    literal:
      "Fetch has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    body: 'The markdown file is served without CORS headers from another origin than the page.',
    solution: 'Serve the file with Access-Control-Allow-Origin (or from the same origin).',
    symptom: 'fetching markdown from other domain blocked cors',
  },
  {
    id: 'pub2-cors-fetch-localhost-8000-opaque',
    source: 'https://github.com/lwsjs/local-web-server/issues/110',
    ecosystem: 'browser',
    product: 'local-web-server',
    title: 'Page served by local-web-server on :8000 cannot fetch an API without CORS headers',
    literal:
      "Access to fetch at URL_HERE from origin 'http://localhost:8000' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource. If an opaque response serves your needs, set the request's mode to 'no-cors' to fetch the resource with CORS disabled.",
    body: 'The API server does not return the CORS headers; the local dev server cannot add them for another origin.',
    solution: 'Add CORS headers on the API, or proxy the API through the dev server (lws --rewrite).',
    symptom: 'local dev server fetch api blocked no-cors opaque response',
  },
  {
    id: 'pub2-cors-xhr-corona-api',
    source: 'https://github.com/disease-sh/API/issues/627',
    ecosystem: 'browser',
    product: 'disease-sh-api',
    title: 'COVID API blocks XMLHttpRequest from browsers (missing CORS header)',
    literal:
      "Access to XMLHttpRequest at 'https://corona.lmao.ninja/v2/' from origin has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    body: 'An API deployment dropped its CORS headers for a while.',
    solution: 'Fixed on the API side; a server-side proxy avoids depending on it.',
    symptom: 'xmlhttprequest to corona api blocked by cors',
  },
  {
    id: 'pub2-cors-preflight-localhost-3000-env',
    source: 'https://github.com/amand33p/stack-underflow/issues/6',
    ecosystem: 'browser',
    product: 'react',
    title: 'React app on :3000: preflight fails because the API URL in .env is empty',
    literal:
      "Access to fetch at '' from origin 'http://localhost:3000' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource. If an opaque response serves your needs, set the request's mode to 'no-cors' to fetch the resource with CORS disabled.",
    body: 'A commit tool overwrote .env, so the API base URL is empty and requests go somewhere without CORS.',
    solution: 'Restore the API URL in .env and restart the dev server.',
    symptom: 'react localhost 3000 preflight request doesnt pass access control check',
  },
  {
    id: 'pub2-firefox-cors-header-does-not-match',
    source: 'https://github.com/monsur/enable-cors.org/issues/169',
    ecosystem: 'browser',
    product: 'firefox',
    title: 'Firefox: CORS header does not match "*, *" (header sent twice)',
    literal:
      'Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at https://demo4.spmpltech.com/api/home/Getlist. (Reason: CORS header ‘Access-Control-Allow-Origin’ does not match ‘*, *’).',
    body: 'Both the application and the web server (IIS or a proxy) add Access-Control-Allow-Origin, so the browser sees two values.',
    solution: 'Add the header in one place only.',
    symptom: 'firefox cors header access control allow origin does not match star star duplicate',
  },
  {
    id: 'pub2-firefox-cors-header-missing-proxy',
    source: 'https://github.com/gnuns/allOrigins/issues/21',
    ecosystem: 'browser',
    product: 'firefox',
    title: 'Firefox blocks responses of an any-origin proxy: CORS header missing',
    literal:
      "Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at http://www.whateverorigin.org/get?url=<INSERT URL>. (Reason: CORS header 'Access-Control-Allow-Origin' missing).",
    body: 'The proxy responses lack Access-Control-Allow-Origin, which Firefox 56+ enforces.',
    solution: 'Use a proxy that sends Access-Control-Allow-Origin: * on every response.',
    symptom: 'firefox cross origin request blocked cors header missing proxy',
  },
  {
    id: 'pub2-cors-fetch-contentsquare-service-worker',
    source: 'https://github.com/rollbar/rollbar.js/issues/1233',
    ecosystem: 'browser',
    product: 'rollbar.js',
    title: 'Service worker re-fetches a third-party analytics ping and trips CORS',
    literal:
      "Access to fetch at 'https://c.ba.contentsquare.net/ping' from origin 'https://mysite.cloud' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    body: 'A PWA service worker routes every request through fetch() in cors mode, including a no-cors analytics beacon.',
    solution:
      'Let the service worker pass through cross-origin requests it does not need to cache (or keep their mode).',
    symptom: 'pwa service worker fetch analytics ping blocked cors',
  },
];

/** Headless Chromium missing libnss3, reached through different launchers. */
export const CHROMIUM_LIBNSS_CASES: PublicCase[] = [
  {
    id: 'pub2-puppeteer-libnss3-tmp-chromium',
    source: 'https://github.com/geshan/js-renderer/issues/9',
    ecosystem: 'browser',
    product: 'puppeteer',
    title: 'Puppeteer on a serverless host: /tmp/chromium cannot load libnss3.so',
    literal:
      'Error: Failed to launch the browser process!\n/tmp/chromium: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory\nTROUBLESHOOTING: https://github.com/puppeteer/puppeteer/blob/master/docs/troubleshooting.md',
    body: 'The runtime image lacks the NSS libraries Chromium links against.',
    solution: 'Use a Chromium build made for the platform (@sparticuz/chromium) or a runtime with libnss3.',
    symptom: 'puppeteer serverless tmp chromium libnss3 missing',
  },
  {
    id: 'pub2-rod-httpx-screenshot-libnss3',
    source: 'https://github.com/projectdiscovery/httpx/issues/1361',
    ecosystem: 'go',
    product: 'httpx',
    title: 'httpx -ss: go-rod cannot launch its Chromium (libnss3 missing)',
    literal:
      '[FTL] Could not create runner: [launcher] Failed to launch the browser, the doc might help https://go-rod.github.io/#/compatibility?id=os: /home/user/.cache/rod/browser/chromium-1131003/chrome: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory',
    body: 'The screenshot mode downloads Chromium, but the host lacks the NSS library it needs.',
    solution: 'sudo apt install libnss3 (and the other Chromium dependencies).',
    symptom: 'httpx screenshot rod launcher failed chromium libnss3',
  },
  {
    id: 'pub2-wwebjs-centos8-libnss3',
    source: 'https://github.com/wwebjs/whatsapp-web.js/issues/12777',
    ecosystem: 'browser',
    product: 'whatsapp-web.js',
    title: 'whatsapp-web.js on CentOS 8: bundled Chromium misses libnss3',
    literal:
      'Error: Failed to launch the browser process!\n/home/sariful/whatsapp/files/node_modules/puppeteer/.local-chromium/linux-818858/chrome-linux/chrome: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory\n\n\nTROUBLESHOOTING: https://github.com/puppeteer/puppeteer/blob/main/docs/troubleshooting.md\n\n    at onClose (/home/sariful/whatsapp/files/node_modules/puppeteer/lib/cjs/puppeteer/node/BrowserRunner.js:193:20)',
    body: 'Ubuntu had the libraries; the CentOS 8 server does not.',
    solution: 'dnf install nss (plus the other libraries in the Puppeteer troubleshooting list).',
    symptom: 'whatsapp web js centos 8 chrome shared libraries',
  },
  {
    id: 'pub2-pptr-io-json-libnss3',
    source: 'https://github.com/choraria/pptr-io/issues/26',
    ecosystem: 'browser',
    product: 'puppeteer',
    title: 'pptr.io clone returns a JSON error: browser process failed (libnss3)',
    literal:
      '{"error":"Error: Failed to launch the browser process!\\n/tmp/chromium: error while loading shared libraries: libnss3.so: cannot open shared object file: No such file or directory\\n\\n\\nTROUBLESHOOTING: https://github.com/puppeteer/puppeteer/blob/main/docs/troubleshooting.md\\n"}',
    body: 'The API returns the launch error serialized in JSON; the deployment runtime has no NSS library.',
    solution: 'Deploy on a runtime with Chromium dependencies or use a serverless Chromium package.',
    symptom: 'api json error failed to launch browser process libnss3',
  },
];
