const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout });
let to = process.argv[3];
async function main() {
  to = to || await rl.question('To: ');
}
const rl2 = require('readline').createInterface({ input: process.stdin, output: process.stdout });
let subject = process.argv[5];
async function compose() {
  const ask = (q) => new Promise(resolve => rl2.question(q, resolve));
  subject = subject || await ask('Subject: ');
}
