// Extension wiring with a mocked `vscode`: manifest, commands, selector, client options, the
// server command line, the API key path and the palette commands' error/cancel handling.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { activate, tick, EXT_DIR } = require("./lib/harness.cjs");

const pkg = JSON.parse(fs.readFileSync(path.join(EXT_DIR, "package.json"), "utf8"));
const SERVER_COMMANDS = ["skillgrade.score", "skillgrade.judge", "skillgrade.certify", "skillgrade.report"];
const PALETTE = [
  "skillgrade.certifyActiveFile",
  "skillgrade.judgeActiveFile",
  "skillgrade.runTaskSuiteActiveFile",
  "skillgrade.comprehensionActiveFile",
  "skillgrade.optimizeActiveFile",
  "skillgrade.showReport",
  "skillgrade.restart",
  "skillgrade.setApiKey",
];
const SKILL = "/ws/pdf-toolkit/SKILL.md";

test("manifest: activation events, engine, commands, settings, no hard dependencies", () => {
  assert.deepEqual(
    [...pkg.activationEvents].sort(),
    ["onLanguage:markdown", "onLanguage:skill", "workspaceContains:**/SKILL.md"].sort(),
  );
  assert.equal(pkg.engines.vscode, "^1.82.0");
  assert.match(pkg.dependencies["vscode-languageclient"], /^[\^~]?9\./);
  assert.equal(pkg.extensionDependencies, undefined, "the Python extension must stay a soft dependency");
  const ids = pkg.contributes.commands.map((c) => c.command);
  assert.deepEqual([...ids].sort(), [...PALETTE].sort());
  for (const id of SERVER_COMMANDS) assert.ok(!ids.includes(id), `${id} is registered by vscode-languageclient`);
  const titles = Object.fromEntries(pkg.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
  assert.equal(titles["skillgrade.certifyActiveFile"], "skillgrade: Certify current skill");
  assert.equal(titles["skillgrade.judgeActiveFile"], "skillgrade: Run LLM judge");
  assert.equal(titles["skillgrade.showReport"], "skillgrade: Show report");
  assert.equal(titles["skillgrade.runTaskSuiteActiveFile"], "skillgrade: Run task suite");
  assert.equal(titles["skillgrade.comprehensionActiveFile"], "skillgrade: Run comprehension evals");
  assert.equal(titles["skillgrade.optimizeActiveFile"], "skillgrade: Optimise description");
  assert.equal(titles["skillgrade.restart"], "skillgrade: Restart server");
  assert.equal(titles["skillgrade.setApiKey"], "skillgrade: Set API key");
  const props = Object.keys(pkg.contributes.configuration.properties).sort();
  assert.deepEqual(
    props,
    [
      "skillgrade.baseUrl",
      "skillgrade.baseline",
      "skillgrade.budgetUsd",
      "skillgrade.debounceMs",
      "skillgrade.docsBaseUrl",
      "skillgrade.hideBaselined",
      "skillgrade.interpreter",
      "skillgrade.judgeModel",
      "skillgrade.judges",
      "skillgrade.logLevel",
      "skillgrade.mcCi",
      "skillgrade.mcN",
      "skillgrade.serverPath",
      "skillgrade.simulationModel",
      "skillgrade.target",
      "skillgrade.trace.server",
    ].sort(),
  );
  assert.ok(!props.some((p) => /key/i.test(p)), "the API key never lives in settings");
});

test("activate: palette commands, selector, client options, bundled server command line", async () => {
  delete process.env.ANTHROPIC_API_KEY;
  const { world } = await activate();
  assert.deepEqual([...world.commands.keys()].sort(), [...PALETTE].sort());
  assert.equal(world.clients.length, 1);
  const c = world.clients[0];
  assert.equal(c.id, "skillgrade"); // so `skillgrade.trace.server` works
  assert.ok(c.started);
  const o = c.clientOptions;
  assert.deepEqual(o.documentSelector, [
    { scheme: "file", pattern: "**/SKILL.md" },
    { scheme: "file", pattern: "**/*.{md,markdown,mdx}" }, // bundled references; the server filters
    { scheme: "file", pattern: "**/*.{yaml,yml,json,jsonl}" }, // task suites, eval files; by content
  ]);
  assert.ok(!o.documentSelector.some((s) => s.language), "a language selector misses VS Code's `skill` id");
  assert.deepEqual(o.synchronize, { configurationSection: "skillgrade" });
  assert.deepEqual(o.initializationOptions, {
    judgeModel: "claude-sonnet-4-5",
    simulationModel: "claude-haiku-4-5",
    budgetUsd: 1,
    debounceMs: 150,
    logLevel: "WARNING",
  });
  const so = c.serverOptions;
  assert.equal(so.transport, undefined, "a transport makes vscode-languageclient append --stdio");
  assert.equal(so.command, "python3");
  assert.deepEqual(so.args, [path.join(EXT_DIR, "bundled", "tool", "server.py")]);
  assert.ok(!so.args.includes("--stdio"));
  assert.equal(so.options.env.SKILLGRADE_IMPORT_STRATEGY, "useBundled");
  assert.equal(so.options.env.SKILLGRADE_LOG, "WARNING");
  assert.equal(so.options.env.ANTHROPIC_API_KEY, undefined);
});

test("server command: serverPath, then interpreter, then the Python extension", async () => {
  let { world } = await activate({ config: { "skillgrade.serverPath": "/opt/bin/skillgrade", "skillgrade.interpreter": "/usr/bin/python3.12" } });
  assert.equal(world.clients[0].serverOptions.command, "/opt/bin/skillgrade");
  assert.deepEqual(world.clients[0].serverOptions.args, ["server"]);

  ({ world } = await activate({ config: { "skillgrade.interpreter": "/venv/bin/python" } }));
  assert.equal(world.clients[0].serverOptions.command, "/venv/bin/python");
  assert.match(world.clients[0].serverOptions.args.at(-1), /bundled[/\\]tool[/\\]server\.py$/);
  assert.equal(world.clients[0].serverOptions.options.env.SKILLGRADE_IMPORT_STRATEGY, "fromEnvironment");

  const pythonExt = {
    isActive: true,
    exports: {
      environments: {
        getActiveEnvironmentPath: () => ({ path: "/home/u/.venv/bin/python" }),
        resolveEnvironment: async () => ({ executable: { uri: { fsPath: "/home/u/.venv/bin/python" } } }),
      },
    },
  };
  ({ world } = await activate({ extensions: { "ms-python.python": pythonExt } }));
  assert.equal(world.clients[0].serverOptions.command, "/home/u/.venv/bin/python");
  assert.equal(world.clients[0].serverOptions.options.env.SKILLGRADE_IMPORT_STRATEGY, "fromEnvironment");

  // a broken Python extension API falls back to the bundled server
  ({ world } = await activate({ extensions: { "ms-python.python": { isActive: true, exports: {} } } }));
  assert.equal(world.clients[0].serverOptions.command, "python3");
});

test("API key: from SecretStorage into the server environment only; a change restarts the server", async () => {
  const { world, context } = await activate({ secrets: { "skillgrade.anthropicApiKey": "sk-ant-test-1" } });
  const first = world.clients[0];
  assert.equal(first.serverOptions.options.env.ANTHROPIC_API_KEY, "sk-ant-test-1");
  assert.ok(!JSON.stringify(first.clientOptions.initializationOptions).includes("sk-ant"));

  world.inputBoxAnswer = "sk-ant-test-2";
  await world.commands.get("skillgrade.setApiKey")();
  assert.equal(world.inputBoxes[0].password, true);
  assert.equal(await context.secrets.get("skillgrade.anthropicApiKey"), "sk-ant-test-2");
  for (let i = 0; i < 50 && world.clients.length < 2; i++) await tick();
  assert.equal(world.clients.length, 2, "server restarted");
  assert.ok(first.disposed);
  assert.equal(world.clients[1].serverOptions.options.env.ANTHROPIC_API_KEY, "sk-ant-test-2");
});

test("certify: Notification progress, cancellable, sendRequest with a token, server error shown verbatim", async () => {
  const message = "LLM layers are not available yet: the judge is not implemented";
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) => {
      if (params.command === "skillgrade.certify") throw Object.assign(new Error(message), { code: -32603 });
      return null;
    },
  });
  const outcome = await world.commands.get("skillgrade.certifyActiveFile")();
  const p = world.progress.at(-1).options;
  assert.equal(p.location, 15 /* Notification: the only location with a Cancel button */);
  assert.equal(p.cancellable, true);
  const req = world.clients[0].requests.find((r) => r.params?.command === "skillgrade.certify");
  assert.equal(req.method, "workspace/executeCommand");
  assert.deepEqual(req.params.arguments, ["file:///ws/pdf-toolkit/SKILL.md"]);
  assert.ok(req.token && typeof req.token.onCancellationRequested === "function", "token passed to sendRequest");
  assert.equal(outcome.status, "error");
  assert.deepEqual(world.messages.at(-1), ["error", `skillgrade certify: ${message}`]);
  assert.ok(!world.messages.some(([, m]) => /\d+\.\d · /.test(m)), "no invented score");
});

test("certify: the server's cost estimate in a modal confirmation first; declining sends nothing", async () => {
  const estimate = { status: "ok", message: "Certify pdf-toolkit: up to 75 model calls (~41,000 input tokens), up to $0.31.", plan: { calls: 75, cost_usd: 0.31 } };
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) => {
      if (params.command === "skillgrade.estimate") return estimate;
      if (params.command === "skillgrade.certify") return { composite: { score: 81.2, badge: "Gold", confidence: "Certified" } };
      return null;
    },
  });
  world.warningAnswer = undefined; // Escape / close
  const declined = await world.commands.get("skillgrade.certifyActiveFile")();
  assert.equal(declined.status, "cancelled");
  assert.equal(world.modals.length, 1);
  assert.equal(world.modals[0].message, `skillgrade: ${estimate.message}`);
  assert.deepEqual(world.modals[0].items, ["Certify"]);
  const est = world.clients[0].requests.find((r) => r.params?.command === "skillgrade.estimate");
  assert.deepEqual(est.params.arguments, ["file:///ws/pdf-toolkit/SKILL.md", "certify"]);
  assert.ok(!world.clients[0].requests.some((r) => r.params?.command === "skillgrade.certify"), "nothing spent");

  world.warningAnswer = "Certify";
  const ran = await world.commands.get("skillgrade.certifyActiveFile")();
  assert.equal(ran.status, "ok");
  assert.equal(world.modals.length, 2);
  assert.ok(world.clients[0].requests.some((r) => r.params?.command === "skillgrade.certify"));
});

test("certify without an API key: the server's sentence, no confirmation, no run", async () => {
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) =>
      params.command === "skillgrade.estimate" ? { status: "no_key", message: "No API key: set ANTHROPIC_API_KEY" } : null,
  });
  const outcome = await world.commands.get("skillgrade.certifyActiveFile")();
  assert.equal(outcome.status, "error");
  assert.equal(outcome.judgeStatus, "no_key");
  assert.equal(world.modals.length, 0);
  assert.deepEqual(world.messages.at(-1), ["warning", "skillgrade certify: No API key: set ANTHROPIC_API_KEY"]);
  assert.ok(!world.clients[0].requests.some((r) => r.params?.command === "skillgrade.certify"));
});

test("judge: Cancel cancels the request token and reports -32800 as cancelled", async () => {
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: (method, params, token) =>
      params.command === "skillgrade.judge"
        ? new Promise((_, reject) =>
            token.onCancellationRequested(() => reject(Object.assign(new Error("cancelled"), { code: -32800 }))),
          )
        : Promise.resolve(null),
  });
  const pending = world.commands.get("skillgrade.judgeActiveFile")();
  await tick();
  world.progress.at(-1).cts.cancel(); // the user presses Cancel on the notification
  const outcome = await pending;
  assert.equal(outcome.status, "cancelled");
  assert.equal(outcome.code, -32800);
  assert.deepEqual(world.messages.at(-1), ["info", "skillgrade: judge cancelled."]);
});

test("task suite, comprehension, optimise: palette runs the server command; its run message or its no-key sentence", async () => {
  const runs = {
    "skillgrade.runTaskSuite": { evaluateRun: { status: "ok", message: "pass: candidate 100%, baseline 50%, delta +50 pts" } },
    "skillgrade.comprehension": { comprehensionRun: { status: "no_key", message: "No API key: set ANTHROPIC_API_KEY" } },
    "skillgrade.optimize": { optimizeRun: { status: "ok", message: "Optimise description: the original is kept" } },
  };
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) => runs[params.command] ?? null,
  });
  const suite = await world.commands.get("skillgrade.runTaskSuiteActiveFile")();
  assert.equal(suite.status, "ok");
  assert.equal(world.progress.at(-1).options.title, "skillgrade: Running the task suite of pdf-toolkit…");
  assert.deepEqual(world.messages.at(-1), ["info", "skillgrade runTaskSuite: pass: candidate 100%, baseline 50%, delta +50 pts"]);
  const comp = await world.commands.get("skillgrade.comprehensionActiveFile")();
  assert.equal(comp.status, "error");
  assert.equal(comp.judgeStatus, "no_key");
  assert.deepEqual(world.messages.at(-1), ["warning", "skillgrade comprehension: No API key: set ANTHROPIC_API_KEY"]);
  const opt = await world.commands.get("skillgrade.optimizeActiveFile")();
  assert.equal(opt.status, "ok");
  assert.deepEqual(world.messages.at(-1), ["info", "skillgrade optimize: Optimise description: the original is kept"]);
  for (const command of Object.keys(runs)) {
    const req = world.clients[0].requests.find((r) => r.params?.command === command);
    assert.deepEqual(req.params.arguments, ["file:///ws/pdf-toolkit/SKILL.md"]);
  }
  assert.equal(world.modals.length, 0, "only certify asks for a cost confirmation");
});

test("status bar: score and badge from skillgrade.score; click opens the report", async () => {
  const score = { composite: { score: 76.54, badge: "Silver", confidence: "Estimated" }, dimensions: { trigger: { score: 80, grade: "B" } } };
  const { ext, world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) => (params.command === "skillgrade.score" ? score : params.command === "skillgrade.report" ? null : null),
  });
  await ext.updateStatus();
  assert.equal(world.statusItem.text, "$(checklist) skillgrade 76.5 · Silver");
  assert.ok(world.statusItem.visible);
  assert.equal(world.statusItem.command, "skillgrade.showReport");
  const shown = await world.commands.get("skillgrade.showReport")();  // no reportHtml (an older server): Markdown
  assert.equal(shown.kind, "markdown");
  assert.equal(world.webviews.length, 0);
  const text = world.contentProviders["skillgrade-report"].provideTextDocumentContent(shown.uri);
  assert.match(text, /\*\*Score:\*\* 76\.54 · \*\*Badge:\*\* Silver/);
  assert.match(text, /\| trigger \| 80 \| B \|/);
});

test("Show report: the server's HTML report in one reused webview, scripts disabled", async () => {
  const page = '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src \'none\'"></head><body><table id="skills"></table></body></html>';
  const asked = [];
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) => {
      asked.push([params.command, params.arguments]);
      return params.command === "skillgrade.reportHtml" ? { html: page, skills: 1, errors: [] } : null;
    },
  });
  const shown = await world.commands.get("skillgrade.showReport")();
  assert.equal(shown.kind, "html");
  assert.deepEqual(asked, [["skillgrade.reportHtml", ["file:///ws/pdf-toolkit/SKILL.md"]]]);
  assert.equal(world.webviews.length, 1);
  const panel = world.webviews[0];
  assert.equal(panel.viewType, "skillgrade.report");
  assert.equal(panel.title, "skillgrade: pdf-toolkit");
  assert.equal(panel.webview.html, page);
  assert.equal(panel.options.enableScripts, false);
  assert.deepEqual(panel.options.localResourceRoots, []);
  await world.commands.get("skillgrade.showReport")();  // again: the same panel, revealed
  assert.equal(world.webviews.length, 1);
  assert.equal(panel.revealed, 1);
  panel.dispose();  // closed by the user: the next one is a new panel
  await world.commands.get("skillgrade.showReport")();
  assert.equal(world.webviews.length, 2);
});

test("Show report: reportHtml failing falls back to the Markdown report", async () => {
  const { world } = await activate({
    activeFile: SKILL,
    onRequest: async (method, params) => {
      if (params.command === "skillgrade.reportHtml") throw Object.assign(new Error("unknown command"), { code: -32601 });
      return params.command === "skillgrade.report" ? { composite: { score: 50, badge: null } } : null;
    },
  });
  const shown = await world.commands.get("skillgrade.showReport")();
  assert.equal(shown.kind, "markdown");
  assert.equal(world.webviews.length, 0);
  assert.match(world.contentProviders["skillgrade-report"].provideTextDocumentContent(shown.uri), /50/);
});

test("status bar: a score without a badge (below the lowest tier)", async () => {
  const { ext, world } = await activate({
    activeFile: SKILL,
    onRequest: async () => ({ composite: { score: 47.97, badge: null } }),
  });
  await ext.updateStatus();
  assert.equal(world.statusItem.text, "$(checklist) skillgrade 48.0");
});

test("status bar: 'Assessed' once a judge run is blended in; 'Estimated' stays in the tooltip", async () => {
  let confidence = "Estimated";
  const { ext, world } = await activate({
    activeFile: SKILL,
    onRequest: async () => ({ composite: { score: 81.26, badge: "Gold", confidence } }),
  });
  await ext.updateStatus();
  assert.equal(world.statusItem.text, "$(checklist) skillgrade 81.3 · Gold");
  assert.match(world.statusItem.tooltip, /81\.3 \(Gold\), Estimated\./);
  confidence = "Assessed";
  await ext.updateStatus();
  assert.equal(world.statusItem.text, "$(checklist) skillgrade 81.3 · Gold · Assessed");
});

test("no SKILL.md active: palette commands explain instead of failing", async () => {
  const { world } = await activate();
  const outcome = await world.commands.get("skillgrade.certifyActiveFile")();
  assert.equal(outcome.status, "error");
  assert.deepEqual(world.messages.at(-1), ["error", "skillgrade: open a SKILL.md file first."]);
  assert.equal(world.clients[0].requests.length, 0);
});

test("workspace/configuration answers leave unset settings out (the server keeps its defaults)", async () => {
  const { world } = await activate();
  const mw = world.clients[0].clientOptions.middleware.workspace.configuration;
  const params = { items: [{ section: "skillgrade" }, { section: "other" }] };
  const next = async () => [
    { docsBaseUrl: null, interpreter: "", serverPath: "", debounceMs: 100, judgeModel: "m" },
    { docsBaseUrl: null },
  ];
  const answer = await mw(params, undefined, next);
  assert.deepEqual(answer, [{ debounceMs: 100, judgeModel: "m" }, { docsBaseUrl: null }]);
  assert.equal(pkg.contributes.configuration.properties["skillgrade.docsBaseUrl"].default, null);
});
