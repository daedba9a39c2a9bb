package mini;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class RoomScheduleTest {
    @Test
    public void separateMeetingsDoNotOverlap() {
        assertFalse(new Meeting("standup", 540, 560).overlaps(new Meeting("review", 660, 720)));
    }

    @Test
    public void clashIsRefused() {
        RoomSchedule room = new RoomSchedule();
        assertTrue(room.book(new Meeting("standup", 540, 600)));
        assertFalse(room.book(new Meeting("interview", 570, 630)));
    }
}
