// What a terminal shows of a command's output. Its own module, with no imports, so that the quiz
// island can use it without loading the console grammar (and with it kubectl's command table).

/**
 * terminalText is what a terminal shows of a command's output: both streams in the order the
 * command wrote them (kubectl drain writes a warning to stderr between lines of stdout).
 */
export function terminalText(o: { stdout: string; stderr: string; terminal?: string }): string {
  return o.terminal ?? o.stdout + o.stderr;
}
