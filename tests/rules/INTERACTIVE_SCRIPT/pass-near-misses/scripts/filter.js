// rl.question('x') would block
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => console.log(line.toUpperCase()));
const help = "use prompt() to ask";
const form = { prompt: 'x' };
