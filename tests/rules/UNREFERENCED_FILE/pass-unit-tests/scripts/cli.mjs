import { diff } from "./diff"
