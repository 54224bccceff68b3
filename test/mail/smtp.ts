import { createServer, type AddressInfo, type Server } from 'node:net';
import { after } from 'node:test';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/**
 * Just enough SMTP on loopback to receive mail from nodemailer: EHLO, MAIL, RCPT, DATA, RSET, QUIT.
 * Recipients matching `reject` are refused with 550, those matching `options.defer` (changeable
 * while the server runs) get the temporary 451.
 */
export async function startSmtpServer(options: { reject?: RegExp; defer?: RegExp | null } = {}): Promise<{ url: string; received: ReceivedMail[]; firstMail: Promise<ReceivedMail>; server: Server }> {
  const received: ReceivedMail[] = [];
  let mailed: (mail: ReceivedMail) => void = () => undefined;
  /** Resolves when the first message has been accepted. */
  const firstMail = new Promise<ReceivedMail>((resolve) => (mailed = resolve));
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 localhost test SMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let index;
      while ((index = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(mail);
            mailed(mail);
            mail = { from: '', to: [], data: '' };
            reply('250 OK queued');
          } else {
            mail.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') reply('250 localhost');
        else if (command === 'MAIL') {
          mail.from = line.slice(10).trim();
          reply('250 OK');
        } else if (command === 'RCPT') {
          const to = line.slice(8).trim();
          if (options.reject?.test(to)) reply('550 No such user');
          else if (options.defer?.test(to)) reply('451 Try again later');
          else {
            mail.to.push(to);
            reply('250 OK');
          }
        } else if (command === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (command === 'RSET') {
          mail = { from: '', to: [], data: '' };
          reply('250 OK');
        } else if (command === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('502 Not implemented');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, firstMail, server };
}
