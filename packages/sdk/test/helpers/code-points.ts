import fc from 'fast-check'

/**
 * One code point as a string: any Unicode scalar value, or, with `loneSurrogates`, any code point
 * at all (half of a UTF-16 pair included). The same draws as fast-check's `unit: 'binary'` (scalar
 * values), without its cost: that unit builds a table of every code point on first use, more than
 * a second inside whichever test asks first, and enough to miss a timeout on a loaded machine.
 */
export function codePoint({ loneSurrogates = false } = {}): fc.Arbitrary<string> {
  if (loneSurrogates) return fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code))
  // The 2,048 surrogates (U+D800 to U+DFFF) are left out by skipping over them.
  return fc
    .integer({ min: 0, max: 0x10ffff - 0x800 })
    .map((code) => String.fromCodePoint(code < 0xd800 ? code : code + 0x800))
}
