/** The part of autocannon's API the HTTP benchmark uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface RequestParams {
      method: string;
      path: string;
      headers?: Record<string, string>;
      body?: string;
    }
    interface Request {
      method: string;
      path: string;
      /** Called before each request of a connection; `context` belongs to that connection. */
      setupRequest?: (request: RequestParams, context: Record<string, string | undefined>) => RequestParams;
    }
    interface Options {
      url: string;
      connections: number;
      duration: number;
      requests: Request[];
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
