package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import org.junit.Test;

public class LeaderboardHiddenTest {
    private static Leaderboard board(int... scores) {
        Leaderboard board = new Leaderboard();
        for (int i = 0; i < scores.length; i++) {
            board.record("p" + i, scores[i]);
        }
        return board;
    }

    @Test
    public void allEqual() {
        assertEquals(0, board(5, 5, 5).indexOfBest());
        assertEquals(0, board(5, 5, 5).indexOfWorst());
    }

    @Test
    public void tieAtTheEnd() {
        assertEquals(1, board(1, 9, 4, 9).indexOfBest());
    }

    @Test
    public void strictBestLater() {
        assertEquals(3, board(1, 9, 4, 10).indexOfBest());
        assertEquals("p3", board(1, 9, 4, 10).leader());
    }

    @Test
    public void worst() {
        assertEquals(2, board(4, 3, 1, 1, 8).indexOfWorst());
    }

    @Test
    public void negativeScores() {
        assertEquals(1, board(-5, -2, -2, -9).indexOfBest());
    }

    @Test
    public void emptyBoard() {
        assertThrows(IllegalStateException.class, () -> new Leaderboard().indexOfBest());
    }
}
