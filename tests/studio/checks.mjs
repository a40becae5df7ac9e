// What the studio's browser tests share: a check prints one line, ok or
// FAIL with why, and the process's exit status says whether any failed.

let failures = 0;

export async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (error) {
    failures++;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}

export function expect(what, got, want) {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
}

// Ends the process: status 1 if a check failed.
export function finish() { process.exit(failures ? 1 : 0); }
