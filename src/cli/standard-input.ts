/** Reads all of standard input as text, trimmed: secrets passed as `-` never appear in `ps`. */
export async function readStandardInput(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  return text.trim();
}
