const h = require('./helpers');
import { x } from './lib/format';
