// A fuzz regression input: keep crashes the fuzzer finds here (see fuzz/run.sh).
fn main() { let x = ((((1)))); }
