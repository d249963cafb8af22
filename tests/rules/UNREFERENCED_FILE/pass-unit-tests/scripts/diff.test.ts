import { diff } from "./diff"
test("diff", () => diff())
