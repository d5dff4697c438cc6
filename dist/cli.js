#!/usr/bin/env node
import { createRequire as __pbCreateRequire } from 'node:module'; const require = __pbCreateRequire(import.meta.url);
import {
  refuseUnsupported
} from "./chunks/chunk-M6HZMNCZ.js";
import "./chunks/chunk-HZ5RLXFM.js";

// src/bin.ts
var refusal = refuseUnsupported(process.platform, process.versions.node);
if (refusal) {
  process.stderr.write(`${refusal}
`);
  process.exitCode = 2;
} else {
  (await import("./chunks/cli-PAQOTJHQ.js")).run();
}
