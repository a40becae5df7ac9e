// What the client tests share: one line per check ("ok   <name>" or
// "FAIL <name>: <why>"), and the count of failures for the exit status.

let failures = 0;

// Runs one check; a throw (an assertion, or a call's error with its gRPC
// code) fails it.
export async function check(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}: ${e.code !== undefined ? `code ${e.code}: ` : ''}${e.message}`);
  }
}

// Throws unless `got` and `want` are the same as JSON.
export function expect(what, got, want) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`${what}: got ${g.slice(0, 600)}, want ${w.slice(0, 600)}`);
}

// The gRPC code a call's promise fails with, or 0 if it succeeds.
export async function codeOf(promise) {
  try {
    await promise;
    return 0;
  } catch (e) {
    return e.code;
  }
}

// A failure outside any check.
export function fail(message) {
  failures++;
  console.log(`FAIL ${message}`);
}

export function failed() {
  return failures;
}
