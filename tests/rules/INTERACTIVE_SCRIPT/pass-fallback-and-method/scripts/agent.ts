class Agent {
  async prompt(params: string): Promise<string> {
    return params;
  }
}
