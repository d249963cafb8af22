import { diff } from "./diff"
export const main = () => diff()
