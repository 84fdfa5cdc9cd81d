// The single executable's main (scripts/build-binary.mjs): runs the CLI's bundle, a SEA asset,
// compiled with V8's code cache of a start, another asset. Node's own `useCodeCache` holds only
// what V8 compiles before running (the bundle's top level); this cache is taken once the server
// has started, so it holds every function a start runs, and a start compiles next to nothing.
//
// Outside a single executable, the build runs this file to make that cache (a training run):
//   node --predictable --random-seed=1 sea-main.cjs BUNDLE CACHE_IN|- CACHE_OUT [ARGS…]
// runs BUNDLE as `reseller-mock ARGS…`, compiled with CACHE_IN when given, stops at the line
// `Press Ctrl+C to stop.` (a server) or at its end (a command), and writes the cache to CACHE_OUT:
// what CACHE_IN held and what this run compiled, so runs in turn add up (why those flags:
// scripts/build-binary.mjs).
const { readFileSync, writeFileSync } = require('node:fs')
const { getAsset, isSea } = require('node:sea')
const { join } = require('node:path')
const vm = require('node:vm')

/** The name stack traces show: `reseller-mock.cjs:LINE:COLUMN`. */
const FILENAME = 'reseller-mock.cjs'
const READY = 'Press Ctrl+C to stop.'

/** The bundle as Node wraps a CommonJS file, run with this file's require (built-in modules only, in a SEA). */
function compile(source, cachedData) {
  // The bundle's `#!` line (cli.ts's) is no JavaScript inside a function: blanked, lines kept.
  const body = source.replace(/^#!.*/, '')
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${body}\n})`
  return new vm.Script(wrapped, { filename: FILENAME, cachedData })
}

function run(script) {
  const bundle = { exports: {} }
  script.runInThisContext()(bundle.exports, require, bundle, FILENAME, __dirname)
}

if (isSea()) {
  const script = compile(getAsset(FILENAME, 'utf8'), new Uint8Array(getAsset(`${FILENAME}.cache`)))
  // As Node warns of its own code cache: the start is slower, nothing else changes.
  if (script.cachedDataRejected) process.emitWarning('Code cache data rejected.')
  run(script)
} else {
  const [bundlePath, cacheIn, cacheOut, ...args] = process.argv.slice(2)
  const script = compile(
    readFileSync(bundlePath, 'utf8'),
    cacheIn === '-' ? undefined : readFileSync(cacheIn),
  )
  if (script.cachedDataRejected) throw new Error(`${cacheIn}: V8 refused this cache`)
  // The binary's assets (sea-config.json beside this file, written before the training runs), read
  // as the binary reads them: the run takes the binary's way (the demo seed prepared at build time,
  // not prepared at start), and the cache holds the code of that way.
  const { assets } = JSON.parse(readFileSync(join(__dirname, 'sea-config.json'), 'utf8'))
  const sea = require('node:sea')
  sea.isSea = () => true
  sea.getAsset = (name, encoding) => {
    const bytes = readFileSync(assets[name])
    return encoding
      ? bytes.toString(encoding)
      : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
  }
  process.argv = [process.argv[0], 'reseller-mock', ...args]
  process.on('exit', () => writeFileSync(cacheOut, script.createCachedData()))
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = (chunk, ...rest) => {
    if (String(chunk).includes(READY)) process.exit(0)
    return write(chunk, ...rest)
  }
  run(script)
}
