const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout });
let to = process.argv[3];
async function main() {
  to = to || await rl.question('To: ');
}
