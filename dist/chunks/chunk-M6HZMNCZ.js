import { createRequire as __pbCreateRequire } from 'node:module'; const require = __pbCreateRequire(import.meta.url);

// src/platform.ts
var MIN_NODE_MAJOR = 22;
var WINDOWS_REFUSAL = "pairbench runs on Linux and macOS; Windows is not supported yet.";
function refuseUnsupported(platform, nodeVersion) {
  const major = Number(/^v?(\d+)\./.exec(nodeVersion)?.[1] ?? NaN);
  if (!(major >= MIN_NODE_MAJOR)) {
    return `pairbench needs Node.js ${MIN_NODE_MAJOR} or later; this is Node.js v${nodeVersion.replace(/^v/, "")}.`;
  }
  if (platform === "win32") return WINDOWS_REFUSAL;
  return null;
}

export {
  WINDOWS_REFUSAL,
  refuseUnsupported
};
