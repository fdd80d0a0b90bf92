"""The sensor board's logic (portable.board.Board) on CPython: numbering from the host's
answer, flash written only when worth it, and nothing sent that a reset could renumber."""

from scoreboard.inputs.portable import framing, messages
from scoreboard.inputs.portable.board import Board, MemoryStore


class Host:
    """Answers the hello with (held, floor) and, if `acking`, acks each pot in order."""

    def __init__(self, held=0, floor=0, *, acking=True):
        self.held, self.floor, self.acking = held, floor, acking
        self.enc, self.dec = framing.Encoder(), framing.Decoder()
        self.pots, self.beats = [], []

    def take(self, board, data):
        for _, payload in self.dec.feed(data):
            msg = messages.parse(payload)
            if msg[0] == messages.HELLO:
                board.receive(self.enc.frame(messages.ack(msg[1], self.held, self.floor)))
            elif msg[0] == messages.POT:
                self.pots.append(msg[1:4])
                if self.acking and msg[1] > self.held and msg[2] <= self.held:
                    self.held = msg[1]
                    board.receive(self.enc.frame(messages.ack(board.boot_id, self.held, 0)))
            elif msg[0] == messages.HEARTBEAT:
                self.beats.append(msg)


def run(board, host, start, ms):
    for now in range(start, start + ms):
        host.take(board, board.poll(now))
        board.flush(now)
    return start + ms


def ball(board, index, at):
    board.edge(index, True, at)
    board.edge(index, False, at + 30)


def test_flash_is_written_once_for_the_store_id_while_the_host_acks_at_once():
    store, host = MemoryStore(), Host()
    board = Board(1, store=store)
    now = run(board, host, 0, 100)
    for _ in range(20):
        ball(board, 2, now)
        now = run(board, host, now, 100)
    assert len(host.pots) == 20 and not board.outbox
    assert store.writes == 1  # the new store id; no pot ever waited long enough


def test_pots_the_host_is_slow_to_ack_go_to_flash_and_leave_it_once_acked():
    store, host = MemoryStore(), Host(acking=False)
    board = Board(1, store=store)
    now = run(board, host, 0, 100)
    ball(board, 0, now)
    now = run(board, host, now, 200)
    assert store.writes == 2 and Board(2, store=store).outbox[0][:2] == [1, 1]
    board.receive(host.enc.frame(messages.ack(1, 1, 0)))
    run(board, host, now, 200)
    assert store.writes == 3 and Board(3, store=store).outbox == []


def test_a_board_numbers_above_what_the_host_holds_and_has_seen_and_forgets_what_it_holds():
    store = MemoryStore()
    board = Board(1, store=store)
    host = Host(acking=False)
    now = run(board, host, 0, 100)
    for index in range(3):
        ball(board, index, now)
        now = run(board, host, now, 100)
    assert list(dict.fromkeys(serial for serial, _, _ in host.pots)) == [1, 2, 3]
    run(board, host, now, 400)  # flash now holds 1-3, unacked
    # After a reset the host says it holds 2 and has seen up to 9.
    board = Board(2, store=store)
    host = Host(held=2, floor=9)
    now = run(board, host, 0, 50)
    assert board.acked == 3 and not board.outbox  # 1-2 dropped at the answer, 3 sent, acked
    ball(board, 5, now)
    run(board, host, now, 100)
    assert list(dict.fromkeys((serial, prev) for serial, prev, _ in host.pots)) == [(3, 2), (10, 3)]


def test_nothing_is_numbered_before_the_host_answers_and_an_old_boots_ack_proves_nothing():
    board = Board(1)
    ball(board, 0, 10)
    board.poll(100)
    board.receive(framing.Encoder().frame(messages.ack(77, 5, 5)))  # another boot's
    assert not board.synced and board.outbox[0][0] is None


def test_a_pot_flash_holds_without_its_serial_is_sent_only_once_flash_has_the_serial():
    # Counted while no host answered, stored unnumbered; if it were sent as soon as it
    # is numbered, a reset before the next write would number it again: counted twice.
    store = MemoryStore()
    board = Board(1, store=store)
    ball(board, 0, 10)
    for now in range(40, 400):
        board.poll(now)
        board.flush(now)
    assert Board(2, store=store).outbox[0][0] is None  # in flash, unnumbered
    writes = store.writes
    host = Host(acking=False)
    for now in range(400, 700):
        host.take(board, board.poll(now))  # hello answered: numbered now...
    assert board.outbox[0][0] == 1 and host.pots == []  # ...but not sent yet
    assert board.flush(700) and store.writes == writes + 1
    host.take(board, board.poll(701))
    assert [serial for serial, _, _ in host.pots] == [1]
    assert Board(3, store=store).outbox[0][0] == 1  # a reset now resends it as 1


def test_the_heartbeat_carries_what_the_board_lost():
    board = Board(1, outbox_size=1)
    host = Host(acking=False)
    run(board, host, 0, 50)
    ball(board, 0, 60)
    ball(board, 1, 60)  # no room: dropped, counted
    board.missed_edges(4)
    run(board, host, 100, 10)
    *_, pending, dropped, missed = host.beats[-1]
    assert (pending, dropped, missed) == (1, 1, 4)


def test_balls_that_keep_falling_cannot_put_off_the_flash_write():
    # The host is away and the beams are never quiet for long: the oldest pot still
    # reaches flash within the longest wait the board promises (PROTOCOL.md).
    store = MemoryStore()
    board = Board(1, store=store)
    board.flush(0)
    for now in range(0, 100):
        board.poll(now)
        board.flush(now)
    first_counted = None
    for number in range(40):
        at = 100 + number * 45  # a 40 ms ball every 45 ms, round the six pockets
        ball(board, number % 6, at)
        for now in range(at, at + 45):
            board.poll(now)
            if board.outbox and first_counted is None:
                first_counted = now
            board.flush(now)
            if Board(2, store=store).outbox:
                break
        else:
            continue
        break
    assert Board(2, store=store).outbox, "never written"
    assert now - first_counted <= board.longest_unsaved_ms + 1
