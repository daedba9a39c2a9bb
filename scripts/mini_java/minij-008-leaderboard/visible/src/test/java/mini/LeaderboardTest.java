package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LeaderboardTest {
    @Test
    public void earliestOfATieLeads() {
        Leaderboard board = new Leaderboard();
        board.record("ana", 3);
        board.record("ben", 7);
        board.record("cho", 7);
        board.record("dev", 1);
        assertEquals("ben", board.leader());
    }
}
