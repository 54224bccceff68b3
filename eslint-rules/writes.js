// Local ESLint rule: a write takes `Tx` (docs/architecture.md, "Writes take Tx").
//
// A function in a `services.ts` that writes through its first parameter (drizzle's `.insert`,
// `.update`, `.delete`, or `execute`/`run` of SQL that starts INSERT, UPDATE or DELETE; also
// inside a transaction it opens on that parameter) must type the parameter `Tx`: its caller opens
// the transaction and decides what commits together. Reads keep `Db`/`DbOrTx`. TypeScript carries
// the rule up the call chain: whoever passes a handle to such a function must hold a `Tx` too.

/**
 * The writes that stay single statements on the outer handle, without a transaction (issue 40, the
 * busy evening: no BEGIN and COMMIT round trips on the hottest paths; a single statement is atomic
 * on its own). The round-trip and statement-count tests (test/features/comments/round-trips.test.ts,
 * test/**\/statement-counts*.test.ts) count their statements. Nothing else belongs on this list.
 * The comment's and the idea's one statement (`createCommentRow`, `createIdeaRow` with
 * `createIdea`) are prepared statements (db/sql.ts `preparedStatement`), which this rule does not
 * see as writes; they take `DbOrTx` for the same reason.
 */
const ONE_STATEMENT_WRITES = new Set([
  'createQuestion', // features/interactiveevents: a question from the audience and its live event
  'setLike', // features/interactiveevents: a like on a question and its live event
  'extendSession', // usersvc: slides the session's end on every request the proxy forwards
  'checkLogin', // usersvc: a service's check of a login, on each of its requests, slides the session too
]);

/** The database handles' types (db/client.ts); a parameter of another type is not a handle. */
const HANDLE_TYPES = /^(?:Db|Tx|DbOrTx)$/;
const WRITE_METHODS = new Set(['insert', 'update', 'delete']);
const RUN_METHODS = new Set(['execute', 'run']);
const WRITES_IN_SQL = /\b(?:INSERT\s+INTO|DELETE\s+FROM)\b|\bUPDATE\s+\S+\s+SET\b/i;

/** The identifier a member chain starts at: `tx` for `tx.with(a).update(t)`. */
function rootIdentifier(node) {
  let current = node;
  for (;;) {
    if (current.type === 'MemberExpression') current = current.object;
    else if (current.type === 'CallExpression') current = current.callee;
    else if (current.type === 'TSNonNullExpression' || current.type === 'TSAsExpression') current = current.expression;
    else return current.type === 'Identifier' ? current.name : null;
  }
}

const propertyName = (member) => (member.property.type === 'Identifier' && !member.computed ? member.property.name : null);

/** The SQL text of a `sql\`…\`` template (or a plain string) given to `execute`. */
function sqlText(arg) {
  if (!arg) return '';
  if (arg.type === 'TaggedTemplateExpression') return arg.quasi.quasis.map((q) => q.value.raw).join(' ');
  if (arg.type === 'TemplateLiteral') return arg.quasis.map((q) => q.value.raw).join(' ');
  if (arg.type === 'Literal' && typeof arg.value === 'string') return arg.value;
  return '';
}

const firstParamName = (fn) => {
  const param = fn.params[0];
  if (!param) return null;
  if (param.type === 'Identifier') return param.name;
  if (param.type === 'AssignmentPattern' && param.left.type === 'Identifier') return param.left.name;
  return null;
};

/** The first parameter's type as written: `Tx` for `tx: Tx`, null when unannotated. */
function firstParamType(fn, sourceCode) {
  const param = fn.params[0];
  const id = param && param.type === 'AssignmentPattern' ? param.left : param;
  return id && id.typeAnnotation ? sourceCode.getText(id.typeAnnotation.typeAnnotation) : null;
}

function functionName(fn) {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent && parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent && parent.type === 'Property' && parent.key.type === 'Identifier') return parent.key.name;
  return null;
}

/** The handle a call writes through, of `handles` (the checked function's parameter and the transactions opened on it), or null. */
function writeCall(node, handles) {
  if (node.callee.type !== 'MemberExpression') return null;
  const name = propertyName(node.callee);
  if (!name) return null;
  const root = rootIdentifier(node.callee.object);
  if (!root || !handles.has(root)) return null;
  if (WRITE_METHODS.has(name)) return root;
  if (RUN_METHODS.has(name)) {
    const text = sqlText(node.arguments[0]);
    return WRITES_IN_SQL.test(text) ? root : null;
  }
  return null;
}

/** writes-take-tx: a function of a services.ts that writes through its first parameter types it `Tx`. */
const writesTakeTx = {
  meta: {
    type: 'problem',
    docs: { description: 'a write in a services.ts takes `tx: Tx`; its caller opens the transaction' },
    schema: [],
  },
  create(context) {
    if (!/[\\/](?:[\w-]+-)?services\.ts$/.test(context.filename)) return {};
    const sourceCode = context.sourceCode ?? context.getSourceCode();
    /** Functions with a typed first parameter, innermost last, each with the handles that write through it. */
    const stack = [];
    const enter = (fn) => {
      const name = firstParamName(fn);
      const type = firstParamType(fn, sourceCode);
      if (type !== null && name && HANDLE_TYPES.test(type)) {
        stack.push({ fn, type, handles: new Set([name]), opened: new Set(), writes: false });
        return;
      }
      // An untyped callback (`db.transaction(async (tx) => …)`) writes for the function around it.
      const outer = stack[stack.length - 1];
      if (outer && name && fn.parent && fn.parent.type === 'CallExpression' && fn.parent.callee.type === 'MemberExpression') {
        const root = rootIdentifier(fn.parent.callee.object);
        if (root && outer.handles.has(root) && propertyName(fn.parent.callee) === 'transaction') {
          outer.handles.add(name);
          if (!outer.opened.has(root) && root === firstParamName(outer.fn)) outer.opened.add(name);
        }
      }
    };
    const exit = (fn) => {
      const top = stack[stack.length - 1];
      if (!top || top.fn !== fn) return;
      stack.pop();
      if (!top.writes || top.type === 'Tx') return;
      const name = functionName(fn);
      if (name && ONE_STATEMENT_WRITES.has(name)) return;
      context.report({
        node: fn.params[0],
        message: `${name ?? 'This function'} writes through its first parameter, typed \`${top.type}\`: a write takes \`tx: Tx\` and its caller opens the transaction (a single statement kept outside one is named in ONE_STATEMENT_WRITES, eslint-rules/writes.js).`,
      });
    };
    return {
      FunctionDeclaration: enter,
      FunctionExpression: enter,
      ArrowFunctionExpression: enter,
      'FunctionDeclaration:exit': exit,
      'FunctionExpression:exit': exit,
      'ArrowFunctionExpression:exit': exit,
      CallExpression(node) {
        for (let i = stack.length - 1; i >= 0; i--) {
          const write = writeCall(node, stack[i].handles);
          if (!write) continue;
          // A command on the outer handle (`Db`, never a transaction) that writes only inside the
          // transaction it opens owns that transaction (the poll's ballot; a summary, whose model is
          // asked outside any transaction).
          if (!(stack[i].type === 'Db' && stack[i].opened.has(write))) stack[i].writes = true;
          return;
        }
      },
    };
  },
};

export const writesPlugin = { rules: { 'writes-take-tx': writesTakeTx } };
