// How the extension starts `skillgrade server`. Pure functions (no `vscode` import) so that
// the node tests can check every branch.
import * as path from "path";

export interface ServerSettings {
  interpreter?: string | null;
  serverPath?: string | null;
}

export type ServerSource = "serverPath" | "interpreter" | "pythonExtension" | "bundled";

export interface ServerCommand {
  command: string;
  args: string[];
  /** which rule picked the command (shown in the output channel) */
  source: ServerSource;
  /** value of SKILLGRADE_IMPORT_STRATEGY for bundled/tool/server.py */
  importStrategy?: "useBundled" | "fromEnvironment";
}

export const SECRET_KEY = "skillgrade.anthropicApiKey";

/** Absolute path of the bundled entry point inside the installed extension. */
export function bundledServerScript(extensionPath: string): string {
  return path.join(extensionPath, "bundled", "tool", "server.py");
}

function nonEmpty(v: string | null | undefined): string | undefined {
  const s = (v ?? "").trim();
  return s.length ? s : undefined;
}

/**
 * Order: `skillgrade.serverPath` (run `<serverPath> server`), `skillgrade.interpreter`, the
 * Python extension's interpreter, then the system `python3`. Interpreters always run the bundled
 * entry point `bundled/tool/server.py`: a configured interpreter's own skillgrade install wins
 * (fromEnvironment), the system python3 uses the bundled copy (useBundled).
 * `--stdio` is never added: the server speaks stdio by default.
 */
export function resolveServerCommand(
  extensionPath: string,
  settings: ServerSettings,
  pythonExtensionInterpreter?: string[] | undefined,
  systemPython = "python3",
): ServerCommand {
  const serverPath = nonEmpty(settings.serverPath);
  if (serverPath) {
    return { command: serverPath, args: ["server"], source: "serverPath" };
  }
  const script = bundledServerScript(extensionPath);
  const interpreter = nonEmpty(settings.interpreter);
  if (interpreter) {
    return { command: interpreter, args: [script], source: "interpreter", importStrategy: "fromEnvironment" };
  }
  if (pythonExtensionInterpreter && pythonExtensionInterpreter.length && nonEmpty(pythonExtensionInterpreter[0])) {
    const [cmd, ...rest] = pythonExtensionInterpreter;
    return { command: cmd, args: [...rest, script], source: "pythonExtension", importStrategy: "fromEnvironment" };
  }
  return { command: systemPython, args: [script], source: "bundled", importStrategy: "useBundled" };
}

export interface EnvInput {
  baseEnv: NodeJS.ProcessEnv;
  apiKey?: string;
  logLevel?: string | null;
  importStrategy?: string;
}

/** The environment of the server process: the API key only ever travels this way. */
export function serverEnv(input: EnvInput): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...input.baseEnv, PYTHONUNBUFFERED: "1" };
  if (input.apiKey) env.ANTHROPIC_API_KEY = input.apiKey;
  if (input.logLevel) env.SKILLGRADE_LOG = input.logLevel;
  if (input.importStrategy) env.SKILLGRADE_IMPORT_STRATEGY = input.importStrategy;
  return env;
}

/** Keys of the `skillgrade` section sent to the server; empty values are left out. */
export const SETTING_KEYS = [
  "judgeModel",
  "simulationModel",
  "budgetUsd",
  "baseUrl",
  "judges",
  "debounceMs",
  "docsBaseUrl",
  "logLevel",
] as const;

export function initializationOptions(get: (key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const v = get(key);
    if (v === undefined || v === null || v === "") continue;
    out[key] = v;
  }
  return out;
}

/** Formats the status-bar text from a `skillgrade.score` result. */
export function statusText(result: unknown): { text: string; tooltip: string } | undefined {
  const composite = (result as { composite?: { score?: unknown; badge?: unknown; confidence?: unknown } } | null)
    ?.composite;
  if (!composite || typeof composite.score !== "number") return undefined;
  const score = Math.round(composite.score * 10) / 10;
  const badge = typeof composite.badge === "string" && composite.badge ? composite.badge : undefined;
  const confidence = typeof composite.confidence === "string" && composite.confidence ? composite.confidence : undefined;
  // "Estimated" (static layer only) is the default and stays in the tooltip; a label earned by an
  // LLM layer ("Assessed", "Certified") is shown in the bar itself
  const earned = confidence && confidence !== "Estimated" ? confidence : undefined;
  return {
    text: `$(checklist) skillgrade ${score.toFixed(1)}${badge ? ` · ${badge}` : ""}${earned ? ` · ${earned}` : ""}`,
    tooltip:
      `skillgrade: ${score.toFixed(1)}${badge ? ` (${badge})` : ""}` +
      `${confidence ? `, ${confidence}` : ""}. Click for the report.`,
  };
}
