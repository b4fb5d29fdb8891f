/**
 * The TypeScript 5 path for tools built on TypeScript's JavaScript API
 * (openapi-typescript): the project's own `typescript` is 7, which has no
 * JavaScript API, so `import 'typescript'` from those tools is resolved to
 * `typescript5` (an npm alias of typescript@5) instead. Loaded with
 * `node --import ./scripts/typescript5/hooks.ts`; remove once the tools support 7.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'typescript' || specifier.startsWith('typescript/')) {
      return nextResolve(specifier.replace(/^typescript/, 'typescript5'), context);
    }
    return nextResolve(specifier, context);
  },
});
