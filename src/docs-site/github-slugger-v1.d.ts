// github-slugger 1.3.0 (installed as `github-slugger-v1`) ships no types: its API is 2.0.0's.
declare module 'github-slugger-v1' {
  export default class BananaSlug {
    slug(value: string, maintainCase?: boolean): string;
    reset(): void;
  }
}
