/**
 * Public error literals from TypeScript and JavaScript build tools, each
 * with the address of the thread it was posted in.
 */
import type { PublicCase } from './public-case.ts';

/** TS2339, told apart by the property and the type. */
export const TS2339_CASES: PublicCase[] = [
  {
    id: 'pub2-ts2339-tojs-unknown-davinci',
    source: 'https://github.com/edp963/davinci/issues/2251',
    ecosystem: 'typescript',
    product: 'davinci',
    title: "davinci webapp build: Property 'toJS' does not exist on type 'unknown'",
    literal:
      "ERROR in /webapp/app/components/Control/Config/ControlList.tsx(55,42):\nTS2339: Property 'toJS' does not exist on type 'unknown'.",
    body: 'A newer TypeScript types the Immutable selector result as unknown, so calling toJS no longer type-checks.',
    solution: 'Install the TypeScript version the project pins (npm ci), or cast the value to the Immutable type.',
    symptom: 'davinci npm start tojs unknown type error',
  },
  {
    id: 'pub2-ts2339-y-on-function',
    source: 'https://github.com/marcelxsilva/tabbar-animation/issues/2',
    ecosystem: 'typescript',
    product: 'react-native',
    title: "Tab bar animation: Property 'y' does not exist on type '(p: any) => any'",
    literal: "Property 'y' does not exist on type '(p: any) => any'.ts(2339)",
    body: 'The component treats a path-generator function as a point object.',
    solution: 'Call the function to get the point (or type the value as the object it is).',
    symptom: 'tabbar animation property y function type ts 2339',
  },
  {
    id: 'pub2-ts2339-topbar-component-method',
    source: 'https://github.com/Azure/azure-functions-ux/issues/521',
    ecosystem: 'typescript',
    product: 'azure-functions-ux',
    title: 'Angular build: onAppSettingsClicked missing on TopBarComponent',
    literal:
      "app/components/top-bar.component.ts(60,22): error TS2339: Property 'onAppSettingsClicked' does not exist on type 'TopBarComponent'.",
    body: 'A commit references a handler that the component class does not define yet.',
    solution: 'Add the method to TopBarComponent (or revert the template change).',
    symptom: 'angular top bar component property does not exist build',
  },
  {
    id: 'pub2-ts2339-errordesc-empty-object',
    source: 'https://github.com/microsoft/TypeScript/issues/38996',
    ecosystem: 'typescript',
    product: 'typescript',
    title: "error TS2339: Property 'errorDesc' does not exist on type '{}'",
    literal: "error TS2339: Property 'errorDesc' does not exist on type '{}'.",
    body: 'A value initialised as {} gets the empty object type, so later property reads fail.',
    solution: 'Declare an interface for the value (or type it as Record<string, unknown>).',
    symptom: 'typescript errordesc empty object type',
  },
  {
    id: 'pub2-ts2339-type-on-object-nativescript',
    source: 'https://github.com/NativeScript/NativeScript/issues/3886',
    ecosystem: 'typescript',
    product: 'nativescript',
    title: "NativeScript: Property 'type' does not exist on type 'Object'",
    literal: "error TS2339: Property 'type' does not exist on type 'Object'.",
    body: 'The array is declared as Array<Object>, and Object has no type property.',
    solution: 'Declare an interface for the items, or index with ["type"].',
    symptom: 'nativescript array of object property type does not exist',
  },
  {
    id: 'pub2-ts2339-tsgo-traverse-visitors',
    source: 'https://github.com/microsoft/typescript-go/issues/2415',
    ecosystem: 'typescript',
    product: 'typescript-go',
    title: "tsgo -b: Property 'visitors' does not exist on the traverse function type",
    literal:
      "packages/babel-core/src/transformation/index.ts:112:30 - error TS2339: Property 'visitors' does not exist on type '{ <S>(parent: Node, opts: TraverseOptions<S>, scope: Scope, state: S, parentPath?: NodePath_Final, visitSelf?: boolean): void;",
    body: 'Declaration emit of tsgo drops the namespace members merged into the exported traverse function, which tsc 5.9 keeps.',
    solution: 'A tsgo declaration-emit bug; build those packages with tsc until it is fixed.',
    symptom: 'tsgo build babel traverse visitors missing declaration emit',
  },
];
