/**
 * A command written as one string, split into argv as Compose does (go-shellwords): words
 * separated by blanks, '…' literal, "…" with `\` escaping `"`, `\`, `$` and `` ` ``, and `\`
 * escaping any character outside quotes. No shell runs: no expansion, no operators.
 */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let word: string | null = null
  const add = (s: string) => (word = (word ?? '') + s)
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (/\s/.test(c)) {
      if (word !== null) words.push(word)
      word = null
    } else if (c === '\\') {
      if (i + 1 < line.length) add(line[++i])
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) throw new Error(`unclosed ' in ${line}`)
      add(line.slice(i + 1, end))
      i = end
    } else if (c === '"') {
      let j = i + 1
      let quoted = ''
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && '"\\$`'.includes(line[j + 1] ?? '')) j++
        quoted += line[j]
      }
      if (j >= line.length) throw new Error(`unclosed " in ${line}`)
      add(quoted)
      i = j
    } else add(c)
  }
  if (word !== null) words.push(word)
  return words
}
