// Every `loopchart` subcommand: each module exports `register(program)`; main.ts registers them all.
export {};
