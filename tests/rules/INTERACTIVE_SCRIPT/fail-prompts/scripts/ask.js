const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
rl.question('Which environment? ', (env) => { console.log(env); rl.close(); });
