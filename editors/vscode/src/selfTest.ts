// Opt-in end-to-end self-test (env SKILLGRADE_E2E_OUT=<file.json>), used by the code-server test.
// It goes through the same VS Code APIs a user's actions go through (providers, palette commands)
// and writes what it saw as JSON. It asserts nothing itself.
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import { CodeActionRequest, type LanguageClient } from "vscode-languageclient/node";
import type { CommandKind, CommandOutcome, RunOptions, ShownReport } from "./extension";
import type { ServerCommand } from "./serverCommand";

export interface SelfTestHooks {
  readyClient(): Promise<LanguageClient | undefined>;
  runLongCommand(kind: CommandKind, uri?: unknown, opts?: RunOptions): Promise<CommandOutcome>;
  showReport(uri?: unknown): Promise<ShownReport | undefined>;
  updateStatus(): Promise<void>;
  statusBarText(): string;
  serverCommandInUse(): ServerCommand | undefined;
  log(message: string): void;
  storeApiKey(key: string): Promise<void>;
}

const SOURCE = "skillgrade";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function codeOf(d: vscode.Diagnostic): { value?: string; target?: string } {
  const c = d.code as unknown;
  if (c && typeof c === "object" && "value" in (c as object)) {
    const o = c as { value: string | number; target?: vscode.Uri };
    return { value: String(o.value), target: o.target?.toString() };
  }
  return { value: c === undefined ? undefined : String(c) };
}

function diagJson(d: vscode.Diagnostic) {
  const code = codeOf(d);
  return {
    source: d.source,
    code: code.value,
    href: code.target,
    severity: vscode.DiagnosticSeverity[d.severity],
    message: d.message,
    range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
  };
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

async function waitFor<T>(fn: () => T | undefined | false, timeoutMs: number, stepMs = 200): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) return undefined;
    await sleep(stepMs);
  }
}

function hoverText(h: vscode.Hover): string[] {
  return h.contents.map((c) => (typeof c === "string" ? c : (c as { value: string }).value));
}

function isCodeAction(a: vscode.CodeAction | vscode.Command): a is vscode.CodeAction {
  return typeof (a as vscode.Command).command !== "string";
}

function actionJson(a: vscode.CodeAction | vscode.Command) {
  if (!isCodeAction(a)) return { title: a.title, command: a.command, kind: undefined, isCommand: true };
  return {
    title: a.title,
    kind: a.kind?.value,
    hasEdit: !!a.edit,
    command: a.command?.command,
    diagnostics: (a.diagnostics ?? []).map((d) => `${d.source}:${codeOf(d).value}`),
    ours:
      (a.diagnostics ?? []).some((d) => d.source === SOURCE) ||
      !!a.kind?.value.startsWith("source.skillgrade") ||
      !!a.command?.command.startsWith("skillgrade."),
  };
}

export async function runSelfTest(outFile: string, hooks: SelfTestHooks): Promise<void> {
  const t0 = Date.now();
  const result: Record<string, unknown> = { vscodeVersion: vscode.version, startedAt: new Date().toISOString() };
  const errors: string[] = [];
  const steps: Record<string, number> = {};
  const mark = (name: string) => (steps[name] = Date.now() - t0);
  result.errors = errors;
  result.steps = steps;
  const step = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      errors.push(`${name}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    }
    mark(name);
  };

  let client: LanguageClient | undefined;
  const docs: vscode.TextDocument[] = [];
  let target: vscode.TextDocument | undefined; // the skill we fix / certify

  await step("clientReady", async () => {
    client = await hooks.readyClient();
    result.clientRunning = !!client;
    result.server = hooks.serverCommandInUse();
    const info = client?.initializeResult;
    result.serverInfo = info?.serverInfo;
    result.serverCommands = info?.capabilities.executeCommandProvider?.commands ?? [];
    result.diagnosticProvider = !!info?.capabilities.diagnosticProvider;
  });

  await step("open", async () => {
    const files = (await vscode.workspace.findFiles("**/SKILL.md", "**/node_modules/**")).sort((a, b) =>
      a.fsPath.localeCompare(b.fsPath),
    );
    for (const f of files) {
      const doc = await vscode.workspace.openTextDocument(f);
      await vscode.window.showTextDocument(doc, { preview: false });
      docs.push(doc);
    }
    result.files = docs.map((d) => ({ uri: d.uri.toString(), languageId: d.languageId }));
  });

  await step("diagnostics", async () => {
    // good skills may have no finding at all: wait for the first of ours, then let the rest settle
    const tWait = Date.now();
    const first = await waitFor(() => docs.some((d) => ours(d.uri).length > 0), 30000);
    result.diagnosticsWaitedMs = Date.now() - tWait;
    if (first) await sleep(1500);
    result.diagnostics = Object.fromEntries(
      docs.map((d) => [
        path.basename(path.dirname(d.uri.fsPath)),
        vscode.languages.getDiagnostics(d.uri).map(diagJson),
      ]),
    );
    target =
      docs.find((d) => ours(d.uri).some((x) => codeOf(x).value === "MISSING_TRIGGER")) ??
      docs.find((d) => ours(d.uri).length > 0) ??
      docs[0];
    result.target = target?.uri.toString();
  });

  await step("hover", async () => {
    if (!target) return;
    const hovers: Record<string, string[]> = {};
    for (const line of [1, 2, Math.min(5, target.lineCount - 1)]) {
      const pos = new vscode.Position(line, 2);
      const hs = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", target.uri, pos);
      hovers[`${line}:2`] = (hs ?? []).flatMap(hoverText);
    }
    result.hover = hovers;
  });

  await step("codeActions", async () => {
    if (!target) return;
    const doc = target;
    const seen = new Map<string, vscode.CodeAction | vscode.Command>();
    const ranges = [...ours(doc.uri).map((d) => d.range), new vscode.Range(0, 0, 0, 0)];
    for (const range of ranges) {
      const acts =
        (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
          "vscode.executeCodeActionProvider",
          doc.uri,
          range,
        )) ?? [];
      for (const a of acts) if (!seen.has(a.title)) seen.set(a.title, a);
    }
    const all = [...seen.values()];
    // VS Code's API drops `diagnostics` from provider results, so ask the server directly (same
    // diagnostics, same ranges) to know which of the offered actions are ours
    const serverTitles = new Map<string, string[]>(); // title -> codes it fixes
    const serverActions: unknown[] = [];
    if (client) {
      const c2p = client.code2ProtocolConverter;
      for (const d of ours(doc.uri)) {
        const raw = (await client.sendRequest(CodeActionRequest.type, {
          textDocument: { uri: doc.uri.toString() },
          range: c2p.asRange(d.range),
          context: { diagnostics: await c2p.asDiagnostics([d]), triggerKind: 1 },
        })) as { title: string; kind?: string; edit?: unknown; diagnostics?: { code?: unknown }[] }[] | null;
        for (const a of raw ?? []) {
          serverActions.push({ title: a.title, kind: a.kind, hasEdit: !!a.edit, for: codeOf(d).value });
          serverTitles.set(a.title, [...(serverTitles.get(a.title) ?? []), codeOf(d).value ?? ""]);
        }
      }
    }
    result.serverCodeActions = serverActions;
    result.codeActions = all.map((a) => ({ ...actionJson(a), ours: actionJson(a).ours || serverTitles.has(a.title) }));
    const quickFixes = all.filter(
      (a): a is vscode.CodeAction =>
        isCodeAction(a) &&
        !!a.edit &&
        !!a.kind?.value.startsWith("quickfix") &&
        ((a.diagnostics ?? []).some((d) => d.source === SOURCE) || serverTitles.has(a.title)),
    );
    const fixes = (a: vscode.CodeAction) => [
      ...(a.diagnostics ?? []).map((d) => codeOf(d).value ?? ""),
      ...(serverTitles.get(a.title) ?? []),
    ];
    const fix = quickFixes.find((a) => fixes(a).includes("MISSING_TRIGGER")) ?? quickFixes[0];
    if (!fix) {
      result.quickFix = { applied: false, reason: "no skillgrade quickfix with an edit was offered" };
      return;
    }
    const fixedCodes = [...new Set(fixes(fix))];
    const before = doc.getText();
    const countBefore = ours(doc.uri).filter((d) => fixedCodes.includes(codeOf(d).value ?? "")).length;
    const applied = await vscode.workspace.applyEdit(fix.edit!);
    if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    const after = doc.getText();
    // diagnostics are re-pulled after the change
    await waitFor(
      () => ours(doc.uri).filter((d) => fixedCodes.includes(codeOf(d).value ?? "")).length < countBefore,
      10000,
    );
    result.quickFix = {
      applied,
      title: fix.title,
      codes: fixedCodes,
      textChanged: before !== after,
      countBefore,
      countAfter: ours(doc.uri).filter((d) => fixedCodes.includes(codeOf(d).value ?? "")).length,
      diagnosticsAfter: ours(doc.uri).map(diagJson),
    };
  });

  await step("statusBar", async () => {
    if (!target) return;
    await vscode.window.showTextDocument(target, { preview: false });
    await hooks.updateStatus();
    result.statusBar = hooks.statusBarText();
  });

  await step("report", async () => {
    if (!target) return;
    const shown = await hooks.showReport(target.uri);
    if (shown?.kind === "html") {
      // the webview the user sees: its title, options and the page the server rendered
      const html = shown.panel.webview.html;
      result.report = {
        kind: "html",
        title: shown.panel.title,
        viewType: shown.panel.viewType,
        enableScripts: !!shown.panel.webview.options.enableScripts,
        head: html.slice(0, 1500),
        table: html.includes('<table class="grid" id="skills">'),
        charts: (html.match(/<svg class="chart dims"/g) ?? []).length,
        length: html.length,
      };
    } else if (shown?.kind === "markdown") {
      const doc = await vscode.workspace.openTextDocument(shown.uri);
      result.report = { kind: "markdown", uri: shown.uri.toString(), languageId: doc.languageId, head: doc.getText().slice(0, 1500) };
    } else {
      result.report = null;
    }
  });

  await step("commands", async () => {
    if (!target) return;
    await vscode.window.showTextDocument(target, { preview: false });
    // the palette commands themselves (Notification progress + sendRequest with a token)
    result.judge = await vscode.commands.executeCommand<CommandOutcome>("skillgrade.judgeActiveFile");
    result.certify = await vscode.commands.executeCommand<CommandOutcome>("skillgrade.certifyActiveFile", target.uri);
    // the same path, cancelled shortly after sending (what the Cancel button does)
    result.certifyCancelled = await vscode.commands.executeCommand<CommandOutcome>(
      "skillgrade.certifyActiveFile",
      target.uri,
      { cancelAfterMs: 0 },
    );
  });

  // With SKILLGRADE_E2E_API_KEY (and skillgrade.baseUrl pointing at the test's fake Messages API):
  // what a user does after the no-key warning: set the key, run the judge again, read the hover.
  await step("judgeWithKey", async () => {
    const key = process.env.SKILLGRADE_E2E_API_KEY;
    if (!target || !key) return;
    const doc = target;
    const hoverAt = async () => {
      const hs = await vscode.commands.executeCommand<vscode.Hover[]>(
        "vscode.executeHoverProvider", doc.uri, new vscode.Position(1, 2));
      return (hs ?? []).flatMap(hoverText);
    };
    const o: Record<string, unknown> = {};
    result.judgeWithKey = o;
    o.hoverBefore = await hoverAt();
    const before = await hooks.readyClient();
    await hooks.storeApiKey(key);
    // the secret's change restarts the server with the key in its environment
    let after: LanguageClient | undefined;
    const end = Date.now() + 30000;
    while (Date.now() < end) {
      after = await hooks.readyClient();
      if (after && after !== before && after.isRunning()) break;
      await sleep(200);
    }
    o.restarted = !!after && after !== before;
    await vscode.window.showTextDocument(doc, { preview: false });
    o.outcome = await vscode.commands.executeCommand<CommandOutcome>("skillgrade.judgeActiveFile");
    const fromJudge = () => vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === "skillgrade judge");
    await waitFor(() => fromJudge().length > 0, 15000);
    o.judgeDiagnostics = fromJudge().map(diagJson);
    o.hoverAfter = await hoverAt();
    await hooks.updateStatus();
    o.statusBar = hooks.statusBarText();
  });

  // Then certify from the palette (the confirmation is answered by the self-test; the estimate it showed
  // is returned): judge + Monte Carlo (+ Elo when an index exists), "Certified" in hover and status bar.
  await step("certifyWithKey", async () => {
    if (!target || !process.env.SKILLGRADE_E2E_API_KEY) return;
    const doc = target;
    await vscode.window.showTextDocument(doc, { preview: false });
    const o: Record<string, unknown> = {};
    result.certifyWithKey = o;
    o.outcome = await vscode.commands.executeCommand<CommandOutcome>("skillgrade.certifyActiveFile", doc.uri, {
      confirmed: true,
    });
    const hs = await vscode.commands.executeCommand<vscode.Hover[]>(
      "vscode.executeHoverProvider", doc.uri, new vscode.Position(1, 2));
    o.hover = (hs ?? []).flatMap(hoverText);
    await hooks.updateStatus();
    o.statusBar = hooks.statusBarText();
  });

  await step("restart", async () => {
    if (!target) return;
    const ok = await vscode.commands.executeCommand<boolean>("skillgrade.restart");
    const c = await hooks.readyClient();
    // the new client re-opens the documents and pulls their diagnostics again
    await sleep(500);
    const back = await waitFor(() => docs.some((d) => ours(d.uri).length > 0), 20000);
    result.restart = { ok, running: !!c?.initializeResult, newClient: c !== client, diagnosticsBack: !!back };
  });

  await step("screenshotSetup", async () => {
    if (!target) return;
    await vscode.commands.executeCommand("workbench.action.closeEditorsInOtherGroups");
    const editor = await vscode.window.showTextDocument(target, { preview: false, viewColumn: vscode.ViewColumn.One });
    // undo the quick fix so the screenshot shows the finding again
    const doc = target;
    if ((result.quickFix as { textChanged?: boolean } | undefined)?.textChanged) {
      await vscode.commands.executeCommand("undo");
      await waitFor(() => ours(doc.uri).length > 0, 10000);
      await sleep(300);
    }
    await vscode.commands.executeCommand("workbench.actions.view.problems");
    await vscode.commands.executeCommand("workbench.action.focusActiveEditorGroup");
    // hover on the first body heading: the server's grade table (the squiggle and the Problems
    // view show the diagnostics)
    const lines = target.getText().split("\n");
    const fmEnd = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
    const heading = lines.findIndex((l, i) => i > fmEnd && /^#/.test(l));
    const pos = new vscode.Position(heading > 0 ? heading : Math.min(fmEnd + 2, target.lineCount - 1), 2);
    editor.selection = new vscode.Selection(pos, pos);
    editor.revealRange(new vscode.Range(pos, pos));
    await sleep(300);
    await vscode.commands.executeCommand("editor.action.showHover");
    result.screenshotHoverAt = [pos.line, pos.character];
  });

  result.totalMs = Date.now() - t0;
  const tmp = `${outFile}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(result, null, 2));
  fs.renameSync(tmp, outFile);
  hooks.log(`self-test written to ${outFile} (${errors.length} errors)`);
}
