"""GNES load client: runs a plan of gRPC StreamCalls, one after the other, over one channel.

Each stream sends `docs` documents of `doc_bytes` bytes in requests of `batch_size` documents.
A stream with a `rate` (requests/s) is paced open loop: request j is due at start + j / rate and is
handed to gRPC no earlier than that, where start is the stream's `at` (epoch seconds) when given, so
two clients can share one clock-aligned schedule, else the moment the stream begins; when gRPC cannot take it in time (the frontend stopped reading
the stream), it goes late and the delay is recorded instead of shifting the schedule. A stream
without a rate is a burst: every request is handed over as fast as gRPC takes it.

Uses the generated stub directly, because CLIClient's constructor changed at 0.0.44 and from then
on it swallows errors. Prints one JSON line per stream as it ends; exits non-zero when a call fails
or fewer responses than requests come back.
"""
import argparse
import json
import sys
import time

import grpc
from gnes.proto import RequestGenerator, gnes_pb2_grpc


def batches(docs, batch_size):
    full, rest = divmod(docs, batch_size)
    return [batch_size] * full + ([rest] if rest else [])


def paced_requests(sizes, payload, rate, at, scheduled, sent):
    """Yields requests on schedule; `scheduled` and `sent` get each request's due and actual
    hand-over instants (epoch seconds), filled in as gRPC pulls the requests."""
    start = at if at is not None else time.time()
    for j, size in enumerate(sizes):
        request = next(RequestGenerator.index([payload] * size, size, request_id_start=j,
                                              doc_id_start=j * size))
        due = start + j / rate if rate else start
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        scheduled.append(due)
        sent.append(time.time())
        yield request


def run_stream(stub, index, stream, batch_size, payload, timeout):
    sizes = batches(stream['docs'], batch_size)
    rate = stream.get('rate')
    scheduled, sent = [], []
    started = time.time()
    responses = 0
    failure = None
    try:
        requests = paced_requests(sizes, payload, rate, stream.get('at') if rate else None,
                                  scheduled, sent)
        for _ in stub.StreamCall(requests, timeout=timeout):
            responses += 1
    except grpc.RpcError as e:
        failure = '%s %s' % (e.code(), e.details())
    report = {'stream': index, 'requests': len(sizes), 'responses': responses,
              'startedAt': started, 'seconds': time.time() - started,
              'rate': rate, 'scheduled': scheduled if rate else None, 'sent': sent}
    print(json.dumps(report), flush=True)
    if failure:
        sys.stderr.write('stream %d: StreamCall failed after %d of %d responses: %s\n'
                         % (index, responses, len(sizes), failure))
        return 3
    if responses != len(sizes):
        sys.stderr.write('stream %d: expected %d responses, got %d\n'
                         % (index, len(sizes), responses))
        return 4
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--host', default='127.0.0.1')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--batch-size', type=int, required=True)
    p.add_argument('--doc-bytes', type=int, required=True)
    p.add_argument('--plan', required=True,
                   help='JSON list of streams: [{"docs": 500, "rate": null}, '
                        '{"docs": 200, "rate": 5, "at": 1795000000.5}]')
    p.add_argument('--timeout', type=float, required=True, help='seconds for the whole plan')
    a = p.parse_args()

    plan = json.loads(a.plan)
    payload = b'a' * a.doc_bytes
    deadline = time.time() + a.timeout
    unlimited = [('grpc.max_send_message_length', -1), ('grpc.max_receive_message_length', -1)]
    with grpc.insecure_channel('%s:%d' % (a.host, a.port), options=unlimited) as channel:
        grpc.channel_ready_future(channel).result(timeout=a.timeout)
        stub = gnes_pb2_grpc.GnesRPCStub(channel)
        for index, stream in enumerate(plan):
            code = run_stream(stub, index, stream, a.batch_size, payload,
                              max(deadline - time.time(), 0.001))
            if code:
                return code
    return 0


if __name__ == '__main__':
    sys.exit(main())
