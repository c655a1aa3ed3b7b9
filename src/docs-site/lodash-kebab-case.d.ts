// lodash-es 4.17 ships no types of its own; `kebabCase` is the one function Fern's slugs need.
declare module 'lodash-es/kebabCase.js' {
  export default function kebabCase(value?: string): string;
}
