import { readdirSync, readFileSync } from "node:fs";
const dir = new URL("../references/", import.meta.url);
for (const f of readdirSync(dir)) readFileSync(new URL(f, dir), "utf8");
// type-check with: tsc -p scripts/tsconfig.snippets.json
