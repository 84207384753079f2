// The production server (server/index.ts and what it imports from db/, app/ and scripts/) compiled into
// one file, build/server.js, so that production runs on plain Node: no TypeScript loader (tsx runs its
// hooks in a loader thread of its own, ~60 MiB of memory; docs/decisions/014-speed.md). Packages stay
// external. Each module keeps its own `import.meta.url` (its source file's address), so the paths it
// finds beside itself (locales, migrations, the SCORM launcher, demo media) are the same as under tsx.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "build");

const ownImportMetaUrl = {
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await fs.promises.readFile(args.path, "utf8");
      const ext = path.extname(args.path).slice(1);
      // The source file's address, relative to the bundle so that the folder may move as a whole.
      const relative = path.relative(outDir, args.path).split(path.sep).join("/");
      return {
        contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(relative)}, import.meta.url).href`),
        loader: ext === "mjs" ? "js" : ext,
      };
    });
  },
};

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  plugins: [ownImportMetaUrl],
};
// The same modules for the tests that run the server in their own process (server/in-process.ts).
const inProcess = build({
  ...common,
  entryPoints: [path.join(root, "server", "in-process.ts")],
  outfile: path.join(outDir, "in-process.js"),
  banner: { js: "// Built by scripts/build-server.mjs from server/in-process.ts, for the tests: do not edit." },
});

await build({
  ...common,
  entryPoints: [path.join(root, "server", "index.ts")],
  outfile: path.join(outDir, "server.js"),
  banner: { js: "// Built by scripts/build-server.mjs from server/index.ts: do not edit." },
});
await inProcess;
