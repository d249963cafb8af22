const args = process.argv.slice(2);
const rl = require('readline').createInterface({ input: process.stdin, output: process.stdout });
if (!args.includes('--yes')) rl.question('Remove? ', (a) => {});
