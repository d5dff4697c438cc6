import { createRequire as __pbCreateRequire } from 'node:module'; const require = __pbCreateRequire(import.meta.url);
import {
  WINDOWS_REFUSAL,
  refuseUnsupported
} from "./chunks/chunk-M6HZMNCZ.js";
import "./chunks/chunk-HZ5RLXFM.js";

// src/action.ts
var refusal = refuseUnsupported(process.platform, process.versions.node);
if (refusal === WINDOWS_REFUSAL) {
  const core = await import("./chunks/core-LEY6LQU7.js");
  core.setFailed(refusal);
} else if (refusal) {
  process.stderr.write(`${refusal}
`);
  process.exitCode = 2;
} else {
  const { runAction } = await import("./chunks/steps-7SLTACXF.js");
  await runAction();
}
