// Lists what each entry of a built package declares: one line per exported name, with its
// kind (function, class, const, interface, type, ...) and, with --shapes, its type as tsc
// prints it — to compare two builds' declarations name by name:
//
//   node pkg-config/declared-names.mjs pkg > after.txt           (names and kinds)
//   node pkg-config/declared-names.mjs pkg --shapes > after.txt  (and each name's type)
//
// tests/js/declarations.test.mjs checks with it that each entry's values are its module's.
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const F = ts.SymbolFlags;
const KINDS = [[F.Class, 'class'], [F.Function, 'function'], [F.Enum, 'enum'], [F.Variable, 'const'], [F.Interface, 'interface'], [F.TypeAlias, 'type']];
/** The package's typed entries, by the directory of their index.d.ts. */
export const ENTRIES = [['edgeattest', ''], ['edgeattest/local', 'local'], ['edgeattest/service', 'service'], ['edgeattest/rego', 'rego']];

/**
 * What the entries of the package in `dir` declare: `{ entry, name, kinds, shape() }` for each
 * exported name, `kinds` e.g. ['class'] or ['function'], `shape()` its type as one line.
 * @param {string} dir
 */
export function declaredNames(dir) {
  const files = ENTRIES.map(([, sub]) => resolve(join(dir, sub, 'index.d.ts')));
  const program = ts.createProgram(files, {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
  });
  const checker = program.getTypeChecker();

  /** The kinds of a symbol (a class is also a type; a name may be a value and a type). */
  function kinds(symbol) {
    const flags = (symbol.flags & F.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags;
    const found = KINDS.filter(([flag]) => flags & flag).map(([, name]) => name);
    return found.length ? found : [`flags:${flags}`];
  }

  /** The declared shape: a value's type, or a type's expansion, one line. */
  function shape(symbol) {
    const target = symbol.flags & F.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target.declarations?.[0];
    const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias;
    if (target.flags & (F.Function | F.Variable | F.Class)) {
      const type = checker.getTypeOfSymbolAtLocation(target, declaration);
      const text = checker.typeToString(type, undefined, flags);
      if (!(target.flags & F.Class)) return text;
      const instance = checker.getDeclaredTypeOfSymbol(target);
      const members = checker.getPropertiesOfType(instance).map((p) => `${p.name}${p.flags & F.Optional ? '?' : ''}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(p, declaration), undefined, flags)}`);
      return `${text} { ${members.sort().join('; ')} }`;
    }
    const type = checker.getDeclaredTypeOfSymbol(target);
    const properties = checker.getPropertiesOfType(type);
    if (properties.length && type.flags & ts.TypeFlags.Object && !checker.isArrayLikeType(type)) {
      const readonly = (p) => (p.declarations ?? []).some((d) => d.modifiers?.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword));
      const members = properties.map((p) => `${readonly(p) ? 'readonly ' : ''}${p.name}${p.flags & F.Optional ? '?' : ''}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(p, declaration), undefined, flags)}`);
      const calls = type.getCallSignatures().map((s) => checker.signatureToString(s, undefined, flags));
      return `{ ${[...calls, ...members.sort()].join('; ')} }`;
    }
    return checker.typeToString(type, undefined, flags);
  }

  const found = [];
  for (const [entry, sub] of ENTRIES) {
    const source = program.getSourceFile(resolve(join(dir, sub, 'index.d.ts')));
    const module = checker.getSymbolAtLocation(source);
    for (const symbol of checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name))) {
      // Module paths differ between two builds' directories: names only.
      const text = () => shape(symbol).replace(/import\("[^"]*"(?:, \{ with: \{[^}]*\} \})?\)\./g, '').replace(/\s+/g, ' ');
      found.push({ entry, name: symbol.name, kinds: kinds(symbol), shape: text });
    }
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, flag] = process.argv.slice(2);
  if (!dir) throw new Error('usage: node pkg-config/declared-names.mjs <package directory> [--shapes]');
  for (const { entry, name, kinds, shape } of declaredNames(dir)) {
    const line = `${entry} ${name} ${kinds.join('+')}`;
    console.log(flag === '--shapes' ? `${line} :: ${shape()}` : line);
  }
}
