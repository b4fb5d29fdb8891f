/**
 * Public error literals from browsers and front-end tooling, each with the
 * address of the thread it was posted in.
 */
import type { PublicCase } from '../eval-cases-public.ts';

export const BROWSER_CASES: PublicCase[] = [
  {
    id: 'pub2-cors-fetch-blocked-markdown', source: 'https://github.com/egoist/loglive/issues/6', ecosystem: 'browser', product: 'loglive',
    title: 'loglive cannot fetch a markdown file from another origin',
    literal: "Fetch has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    body: 'The markdown file is served without CORS headers from another origin than the page.',
    solution: 'Serve the file with Access-Control-Allow-Origin (or from the same origin).',
    symptom: 'fetching markdown from other domain blocked cors',
  },
  {
    id: 'pub2-cors-fetch-localhost-8000-opaque', source: 'https://github.com/lwsjs/local-web-server/issues/110', ecosystem: 'browser', product: 'local-web-server',
    title: 'Page served by local-web-server on :8000 cannot fetch an API without CORS headers',
    literal: "Access to fetch at URL_HERE from origin 'http://localhost:8000' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource. If an opaque response serves your needs, set the request's mode to 'no-cors' to fetch the resource with CORS disabled.",
    body: 'The API server does not return the CORS headers; the local dev server cannot add them for another origin.',
    solution: 'Add CORS headers on the API, or proxy the API through the dev server (lws --rewrite).',
    symptom: 'local dev server fetch api blocked no-cors opaque response',
  },
  {
    id: 'pub2-cors-xhr-corona-api', source: 'https://github.com/disease-sh/API/issues/627', ecosystem: 'browser', product: 'disease-sh-api',
    title: 'COVID API blocks XMLHttpRequest from browsers (missing CORS header)',
    literal: "Access to XMLHttpRequest at 'https://corona.lmao.ninja/v2/' from origin has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    body: 'An API deployment dropped its CORS headers for a while.',
    solution: 'Fixed on the API side; a server-side proxy avoids depending on it.',
    symptom: 'xmlhttprequest to corona api blocked by cors',
  },
  {
    id: 'pub2-cors-preflight-localhost-3000-env', source: 'https://github.com/amand33p/stack-underflow/issues/6', ecosystem: 'browser', product: 'react',
    title: 'React app on :3000: preflight fails because the API URL in .env is empty',
    literal: "Access to fetch at '' from origin 'http://localhost:3000' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource. If an opaque response serves your needs, set the request's mode to 'no-cors' to fetch the resource with CORS disabled.",
    body: 'A commit tool overwrote .env, so the API base URL is empty and requests go somewhere without CORS.',
    solution: 'Restore the API URL in .env and restart the dev server.',
    symptom: 'react localhost 3000 preflight request doesnt pass access control check',
  },
  {
    id: 'pub2-firefox-cors-header-does-not-match', source: 'https://github.com/monsur/enable-cors.org/issues/169', ecosystem: 'browser', product: 'firefox',
    title: 'Firefox: CORS header does not match "*, *" (header sent twice)',
    literal: "Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at https://demo4.spmpltech.com/api/home/Getlist. (Reason: CORS header ‘Access-Control-Allow-Origin’ does not match ‘*, *’).",
    body: 'Both the application and the web server (IIS or a proxy) add Access-Control-Allow-Origin, so the browser sees two values.',
    solution: 'Add the header in one place only.',
    symptom: 'firefox cors header access control allow origin does not match star star duplicate',
  },
  {
    id: 'pub2-firefox-cors-header-missing-proxy', source: 'https://github.com/gnuns/allOrigins/issues/21', ecosystem: 'browser', product: 'firefox',
    title: 'Firefox blocks responses of an any-origin proxy: CORS header missing',
    literal: "Cross-Origin Request Blocked: The Same Origin Policy disallows reading the remote resource at http://www.whateverorigin.org/get?url=<INSERT URL>. (Reason: CORS header 'Access-Control-Allow-Origin' missing).",
    body: 'The proxy responses lack Access-Control-Allow-Origin, which Firefox 56+ enforces.',
    solution: 'Use a proxy that sends Access-Control-Allow-Origin: * on every response.',
    symptom: 'firefox cross origin request blocked cors header missing proxy',
  },
  {
    id: 'pub2-cors-fetch-contentsquare-service-worker', source: 'https://github.com/rollbar/rollbar.js/issues/1233', ecosystem: 'browser', product: 'rollbar.js',
    title: 'Service worker re-fetches a third-party analytics ping and trips CORS',
    literal: "Access to fetch at 'https://c.ba.contentsquare.net/ping' from origin 'https://mysite.cloud' has been blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource.",
    body: 'A PWA service worker routes every request through fetch() in cors mode, including a no-cors analytics beacon.',
    solution: 'Let the service worker pass through cross-origin requests it does not need to cache (or keep their mode).',
    symptom: 'pwa service worker fetch analytics ping blocked cors',
  },
];
