/**
 * jose ships only ES modules, and jest's CommonJS runtime (run with --experimental-vm-modules,
 * which honours `"type": "module"`) refuses to `require` them; node itself loads them natively,
 * so only the tests need this. Before the run, jose's `dist/webapi` tree is transpiled once to
 * CommonJS under node_modules/.cache, and `moduleNameMapper` points `jose` there.
 */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const root = path.resolve(__dirname, '../..');
const source = path.join(root, 'node_modules/jose/dist/webapi');
const version = require(path.join(root, 'node_modules/jose/package.json')).version;
const target = path.join(root, 'node_modules/.cache/jose-cjs', version);

function transpileTree(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) transpileTree(src, dst);
    else if (entry.name.endsWith('.js')) {
      const out = ts.transpileModule(fs.readFileSync(src, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
      fs.writeFileSync(dst, out.outputText);
    }
  }
}

module.exports = async function joseToCommonJs() {
  if (fs.existsSync(path.join(target, 'index.js'))) return;
  const tmp = `${target}.tmp-${process.pid}`;
  transpileTree(source, tmp);
  fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ type: 'commonjs' }));
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(tmp, target);
};

module.exports.JOSE_CJS_DIR = target;
