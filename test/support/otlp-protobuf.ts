/**
 * A decoder for the OTLP/protobuf trace export (`ExportTraceServiceRequest`), the body
 * `@opentelemetry/exporter-trace-otlp-proto` sends, into the same JSON shape the OTLP/JSON
 * encoding has, so the receiver reads both with one path. Written from the field numbers of
 * opentelemetry-proto's `trace/v1/trace.proto` and `common/v1/common.proto` (the protobuf wire
 * format is small: varints, fixed 32/64-bit values, length-delimited bytes), so a test checks what
 * went over the wire with nothing of the exporter's own code.
 *
 * @see https://github.com/open-telemetry/opentelemetry-proto/blob/main/opentelemetry/proto/trace/v1/trace.proto
 */

type Field = { number: number; wire: number; value: bigint | Uint8Array };

/** Reads the fields of one message, in order; repeated fields appear once per value. */
function fields(bytes: Uint8Array): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  const fixed = (size: number): bigint => {
    let result = 0n;
    for (let index = size - 1; index >= 0; index -= 1) result = (result << 8n) | BigInt(bytes[at + index]!);
    at += size;
    return result;
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ number, wire, value: varint() });
    else if (wire === 1) out.push({ number, wire, value: fixed(8) });
    else if (wire === 5) out.push({ number, wire, value: fixed(4) });
    else if (wire === 2) {
      const length = Number(varint());
      out.push({ number, wire, value: bytes.subarray(at, at + length) });
      at += length;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return out;
}

const text = (value: Field['value']): string => new TextDecoder().decode(value as Uint8Array);
const hex = (value: Field['value']): string => Buffer.from(value as Uint8Array).toString('hex');
const all = (message: Uint8Array, number: number): Field[] => fields(message).filter((f) => f.number === number);
const one = (message: Uint8Array, number: number): Field | undefined => all(message, number).at(-1);

function anyValue(bytes: Uint8Array): Record<string, unknown> {
  const field = fields(bytes).at(-1);
  if (field === undefined) return {};
  switch (field.number) {
    case 1:
      return { stringValue: text(field.value) };
    case 2:
      return { boolValue: field.value !== 0n };
    case 3:
      return { intValue: BigInt.asIntN(64, field.value as bigint).toString() };
    case 4: {
      const buffer = new DataView(new ArrayBuffer(8));
      buffer.setBigUint64(0, field.value as bigint, true);
      return { doubleValue: buffer.getFloat64(0, true) };
    }
    case 5:
      return { arrayValue: { values: all(field.value as Uint8Array, 1).map((v) => anyValue(v.value as Uint8Array)) } };
    case 6:
      return { kvlistValue: { values: keyValues(field.value as Uint8Array, 1) } };
    case 7:
      return { bytesValue: Buffer.from(field.value as Uint8Array).toString('base64') };
    default:
      return {};
  }
}

function keyValues(message: Uint8Array, number: number): { key: string; value: Record<string, unknown> }[] {
  return all(message, number).map((field) => {
    const kv = field.value as Uint8Array;
    const value = one(kv, 2);
    return {
      key: text(one(kv, 1)?.value ?? new Uint8Array()),
      value: value ? anyValue(value.value as Uint8Array) : {},
    };
  });
}

function span(bytes: Uint8Array): Record<string, unknown> {
  const get = (number: number) => one(bytes, number)?.value;
  const status = get(15) as Uint8Array | undefined;
  return {
    traceId: hex(get(1) ?? new Uint8Array()),
    spanId: hex(get(2) ?? new Uint8Array()),
    parentSpanId: get(4) === undefined ? '' : hex(get(4)!),
    name: text(get(5) ?? new Uint8Array()),
    kind: Number(get(6) ?? 0n),
    startTimeUnixNano: String(get(7) ?? 0n),
    endTimeUnixNano: String(get(8) ?? 0n),
    attributes: keyValues(bytes, 9),
    events: all(bytes, 11).map((event) => ({
      name: text(one(event.value as Uint8Array, 2)?.value ?? new Uint8Array()),
      attributes: keyValues(event.value as Uint8Array, 3),
    })),
    links: all(bytes, 13).map((link) => ({
      traceId: hex(one(link.value as Uint8Array, 1)?.value ?? new Uint8Array()),
      spanId: hex(one(link.value as Uint8Array, 2)?.value ?? new Uint8Array()),
      attributes: keyValues(link.value as Uint8Array, 4),
    })),
    status:
      status === undefined
        ? {}
        : {
            code: Number(one(status, 3)?.value ?? 0n),
            ...(one(status, 2) && { message: text(one(status, 2)!.value) }),
          },
  };
}

/** An `ExportTraceServiceRequest` in protobuf, as the OTLP/JSON object of the same request. */
export function decodeProtobufTraces(body: Uint8Array): unknown {
  return {
    resourceSpans: all(body, 1).map((resourceSpans) => {
      const bytes = resourceSpans.value as Uint8Array;
      const resource = one(bytes, 1)?.value as Uint8Array | undefined;
      return {
        resource: { attributes: resource ? keyValues(resource, 1) : [] },
        scopeSpans: all(bytes, 2).map((scopeSpans) => {
          const scope = one(scopeSpans.value as Uint8Array, 1)?.value as Uint8Array | undefined;
          return {
            scope: { name: scope ? text(one(scope, 1)?.value ?? new Uint8Array()) : '' },
            spans: all(scopeSpans.value as Uint8Array, 2).map((s) => span(s.value as Uint8Array)),
          };
        }),
      };
    }),
  };
}
