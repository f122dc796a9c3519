/** The ceiling: a Fastify route that does nothing, on this machine. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
