// Every `npm run bench` section: each module exports `section: BenchSection`; bench/main.ts runs them.
export {};
