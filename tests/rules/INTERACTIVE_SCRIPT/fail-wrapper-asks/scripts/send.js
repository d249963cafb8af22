const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout });
let to = process.argv[3];
async function main() {
  const ask = (q) => new Promise(resolve => rl.question(q, resolve));
  to = to || await ask('To: ');
  const body = await ask('Body: ');
}
