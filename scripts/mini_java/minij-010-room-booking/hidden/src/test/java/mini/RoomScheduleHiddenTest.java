package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.junit.Test;

public class RoomScheduleHiddenTest {
    @Test
    public void backToBackIsFine() {
        Meeting a = new Meeting("a", 540, 600);
        Meeting b = new Meeting("b", 600, 660);
        assertFalse(a.overlaps(b));
        assertFalse(b.overlaps(a));
    }

    @Test
    public void earlierMeetingDoesNotOverlapLaterOne() {
        assertFalse(new Meeting("late", 900, 960).overlaps(new Meeting("early", 480, 510)));
    }

    @Test
    public void containedMeetingOverlaps() {
        Meeting day = new Meeting("workshop", 540, 1020);
        Meeting lunch = new Meeting("lunch", 720, 780);
        assertTrue(day.overlaps(lunch));
        assertTrue(lunch.overlaps(day));
    }

    @Test
    public void fullDayOfBookings() {
        RoomSchedule room = new RoomSchedule();
        assertTrue(room.book(new Meeting("standup", 540, 555)));
        assertTrue(room.book(new Meeting("planning", 600, 660)));
        assertTrue(room.book(new Meeting("standup-2", 555, 600)));
        assertFalse(room.book(new Meeting("overrun", 650, 700)));
        assertTrue(room.book(new Meeting("retro", 960, 1020)));
        assertEquals(Arrays.asList("standup", "planning", "standup-2", "retro"), room.titles());
    }

    @Test
    public void badTimes() {
        assertThrows(IllegalArgumentException.class, () -> new Meeting("x", 600, 600));
        assertThrows(IllegalArgumentException.class, () -> new Meeting("x", 1400, 1500));
    }
}
