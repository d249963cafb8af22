// Drives the real server through the exact command line the extension spawns (captured from
// activate() with a mocked vscode), speaking LSP with vscode-jsonrpc, the library
// vscode-languageclient itself uses. Needs `npm run bundle-python` (bundled/libs) first.
//
// SKILLGRADE_TEST_SERVER_PATH=/path/to/skillgrade runs the same checks through the
// `skillgrade.serverPath` branch instead of the bundled server.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { spawn } = require("node:child_process");
const rpc = require("vscode-jsonrpc/node");
const { activate, EXT_DIR } = require("./lib/harness.cjs");

const FIXTURES = path.join(__dirname, "fixtures", "skills");
const BAD = path.join(FIXTURES, "pdf-toolkit", "SKILL.md");
const GOOD = path.join(FIXTURES, "release-notes", "SKILL.md");
const uriOf = (p) => `file://${p}`;

// VS Code 1.139's relevant client capabilities (pull diagnostics, progress, configuration)
const CAPABILITIES = {
  workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true }, workspaceEdit: { documentChanges: true }, applyEdit: true, diagnostics: { refreshSupport: true }, codeLens: { refreshSupport: true } },
  textDocument: {
    synchronization: { dynamicRegistration: true, didSave: true },
    hover: { contentFormat: ["markdown", "plaintext"] },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["", "quickfix", "refactor", "refactor.extract", "source"] } }, dataSupport: true, resolveSupport: { properties: ["edit"] } },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    publishDiagnostics: { codeDescriptionSupport: true, dataSupport: true },
    codeLens: {},
  },
  window: { workDoneProgress: true, showDocument: { support: true } },
};

function applyEdits(text, edits) {
  const lines = text.split("\n");
  const offset = (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end));
  return out;
}

function editsFor(edit, uri) {
  if (!edit) return [];
  if (edit.documentChanges) return edit.documentChanges.filter((c) => c.textDocument?.uri === uri).flatMap((c) => c.edits);
  return edit.changes?.[uri] ?? [];
}

test("the server the extension spawns speaks LSP to a VS Code-like client", { timeout: 90000 }, async (t) => {
  delete process.env.ANTHROPIC_API_KEY;
  const serverPath = process.env.SKILLGRADE_TEST_SERVER_PATH;
  if (!serverPath) {
    assert.ok(
      fs.existsSync(path.join(EXT_DIR, "bundled", "libs", "skillgrade")),
      "bundled/libs is missing: run `npm run bundle-python` in editors/vscode first",
    );
  }
  const { world } = await activate(serverPath ? { config: { "skillgrade.serverPath": serverPath } } : {});
  const so = world.clients[0].serverOptions;
  const init = world.clients[0].clientOptions.initializationOptions;

  const stderr = [];
  const proc = spawn(so.command, so.args, { env: so.options.env, cwd: FIXTURES, stdio: ["pipe", "pipe", "pipe"] });
  proc.stderr.on("data", (d) => stderr.push(d.toString()));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  const serverRequests = [];
  const progress = [];
  conn.onRequest((method, params) => {
    serverRequests.push(method);
    if (method === "workspace/configuration") return params.items.map((i) => (i.section === "skillgrade" ? init : null));
    return null;
  });
  conn.onNotification((method, params) => {
    if (method === "$/progress") progress.push(params.value?.kind);
  });
  conn.listen();
  t.after(() => {
    conn.dispose();
    proc.kill();
  });
  const diag = () => (stderr.length ? `\nserver stderr:\n${stderr.join("").slice(-3000)}` : "");
  let shuttingDown = false;
  const exited = new Promise((_, reject) =>
    proc.on("exit", (code) => {
      if (!shuttingDown) reject(new Error(`the server exited early (code ${code})${diag()}`));
    }),
  );
  exited.catch(() => {});
  // every request races the server's death, so a crash fails the test with its stderr
  const request = (method, params) => Promise.race([conn.sendRequest(method, params), exited]);

  // initialize
  const t0 = Date.now();
  const initResult = await request("initialize", {
    processId: process.pid,
    clientInfo: { name: "skillgrade-node-test", version: "1.139.1" },
    rootUri: uriOf(FIXTURES),
    workspaceFolders: [{ uri: uriOf(FIXTURES), name: "skills" }],
    capabilities: CAPABILITIES,
    initializationOptions: init,
  }).catch((e) => assert.fail(`initialize failed: ${e.message}${diag()}`));
  t.diagnostic(`initialize answered in ${Date.now() - t0} ms (${so.command} ${so.args.join(" ")})`);
  const caps = initResult.capabilities;
  assert.ok(caps.diagnosticProvider, "pull diagnostics (VS Code pulls)");
  assert.ok(caps.hoverProvider, "hover");
  assert.ok(caps.codeActionProvider, "code actions");
  const commands = caps.executeCommandProvider?.commands ?? [];
  for (const c of ["skillgrade.score", "skillgrade.judge", "skillgrade.certify", "skillgrade.report"]) {
    assert.ok(commands.includes(c), `server command ${c} (got ${commands})`);
  }
  await conn.sendNotification("initialized", {});
  await conn.sendNotification("workspace/didChangeConfiguration", { settings: { skillgrade: init } });

  // open the bad skill with VS Code's language id for SKILL.md
  const uri = uriOf(BAD);
  let text = fs.readFileSync(BAD, "utf8");
  await conn.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "skill", version: 1, text } });
  await conn.sendNotification("textDocument/didOpen", {
    textDocument: { uri: uriOf(GOOD), languageId: "skill", version: 1, text: fs.readFileSync(GOOD, "utf8") },
  });

  const pull = async (u) => (await request("textDocument/diagnostic", { textDocument: { uri: u } })).items ?? [];
  const items = await pull(uri);
  t.diagnostic(`diagnostics: ${items.map((d) => d.code).join(", ")}`);
  assert.ok(items.length > 0, `no diagnostics for the bad skill${diag()}`);
  for (const d of items) {
    assert.equal(d.source, "skillgrade");
    assert.ok(d.code, "every diagnostic has a code");
    assert.ok(d.codeDescription?.href, `codeDescription.href for ${d.code}`);
  }
  const missing = items.find((d) => d.code === "MISSING_TRIGGER");
  assert.ok(missing, "MISSING_TRIGGER on a description without a trigger clause");
  const goodItems = await pull(uriOf(GOOD));
  assert.ok(!goodItems.some((d) => d.code === "MISSING_TRIGGER"), "no MISSING_TRIGGER on the good skill");

  // hover: grades
  const hover = await request("textDocument/hover", { textDocument: { uri }, position: { line: 1, character: 2 } });
  const hoverText = typeof hover?.contents === "string" ? hover.contents : hover?.contents?.value ?? JSON.stringify(hover?.contents);
  assert.ok(hoverText, "hover on the frontmatter");
  assert.match(hoverText, /\d/, "hover shows the score");

  // quick fix
  const actions = await request("textDocument/codeAction", {
    textDocument: { uri },
    range: missing.range,
    context: { diagnostics: [missing], triggerKind: 1 },
  });
  t.diagnostic(`code actions: ${(actions ?? []).map((a) => `${a.kind}:${a.title}`).join(" | ")}`);
  let fix = (actions ?? []).find((a) => a.kind === "quickfix" && (a.edit || a.data));
  assert.ok(fix, "a quickfix for MISSING_TRIGGER");
  if (!fix.edit && caps.codeActionProvider?.resolveProvider) fix = await request("codeAction/resolve", fix);
  const edits = editsFor(fix.edit, uri);
  assert.ok(edits.length > 0, "the quick fix edits the document");
  text = applyEdits(text, edits);
  await conn.sendNotification("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
  let after = [];
  for (let i = 0; i < 20; i++) {
    after = await pull(uri);
    if (!after.some((d) => d.code === "MISSING_TRIGGER")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(!after.some((d) => d.code === "MISSING_TRIGGER"), "MISSING_TRIGGER gone after the fix");

  // the status bar's request
  const score = await request("workspace/executeCommand", { command: "skillgrade.score", arguments: [uri] });
  assert.equal(typeof score?.composite?.score, "number", `composite.score in ${JSON.stringify(score)?.slice(0, 300)}`);
  assert.ok(score.composite.badge === null || typeof score.composite.badge === "string", "badge: a tier name or null");
  t.diagnostic(`score: ${score.composite.score} ${score.composite.badge}`);

  // certify without an API key: an honest error (or -32800 when cancelled), never a result
  const src = new rpc.CancellationTokenSource();
  const certify = conn.sendRequest("workspace/executeCommand", { command: "skillgrade.certify", arguments: [uri] }, src.token);
  src.cancel();
  const err = await certify.then(
    (r) => assert.fail(`certify without API key returned a result: ${JSON.stringify(r).slice(0, 300)}`),
    (e) => e,
  );
  t.diagnostic(`certify (cancelled at once): ${err.code} ${err.message}`);
  assert.ok(err.code === -32800 || err.message, "cancelled or an error message");
  // judge without an API key: the static result stands, with the server's one sentence and no judge layer
  const judged = await conn.sendRequest("workspace/executeCommand", { command: "skillgrade.judge", arguments: [uri] });
  t.diagnostic(`judge: ${JSON.stringify(judged?.judgeRun)}`);
  assert.equal(judged?.judgeRun?.status, "no_key", `judgeRun in ${JSON.stringify(judged)?.slice(0, 300)}`);
  assert.match(judged.judgeRun.message, /ANTHROPIC_API_KEY/, "the judge says which key is missing");
  assert.deepEqual(judged.composite.layers_run, ["static"], "no judge layer without a key");
  assert.notEqual(judged.composite.confidence, "Assessed", "never 'Assessed' without a judge run");

  shuttingDown = true;
  await conn.sendRequest("shutdown");
  await conn.sendNotification("exit");
  const code = await new Promise((r) => (proc.exitCode !== null ? r(proc.exitCode) : proc.on("exit", r)));
  assert.equal(code, 0, `server exit code${diag()}`);
  t.diagnostic(`server requests seen: ${[...new Set(serverRequests)].join(", ")}; progress: ${progress.join(",")}`);
});
