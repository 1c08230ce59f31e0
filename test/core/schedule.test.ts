import { describe, expect, it } from 'vitest'
import { checkSchedule, nextOccurrence, type occursOn } from '../../packages/core/src/templates/schedule.ts'

/** The first `n` occurrences on or after `from`. */
function first(schedule: Parameters<typeof occursOn>[0], start: string, n: number, from = start): string[] {
  const out: string[] = []
  let day: string | null = from
  while (out.length < n && day) {
    day = nextOccurrence(schedule, start, day)
    if (!day) break
    out.push(day)
    day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  }
  return out
}

describe('recurrence schedules', () => {
  it('daily every N days from the start', () => {
    expect(first({ frequency: 'daily', interval: 3 }, '2030-01-30', 3)).toEqual([
      '2030-01-30',
      '2030-02-02',
      '2030-02-05',
    ])
    // Counted from the start, not from the day asked.
    expect(first({ frequency: 'daily', interval: 3 }, '2030-01-30', 1, '2030-01-31')).toEqual(['2030-02-02'])
  })

  it('weekly on weekdays, every N weeks counted from the start’s week (weeks start on Monday)', () => {
    // 2030-01-02 is a Wednesday.
    expect(
      first({ frequency: 'weekly', interval: 1, weekdays: ['monday', 'friday'] }, '2030-01-02', 3),
    ).toEqual(['2030-01-04', '2030-01-07', '2030-01-11'])
    expect(
      first({ frequency: 'weekly', interval: 2, weekdays: ['monday', 'sunday'] }, '2030-01-02', 4),
    ).toEqual(['2030-01-06', '2030-01-14', '2030-01-20', '2030-01-28'])
  })

  it('monthly on a day, clamped to short months, every N months', () => {
    expect(first({ frequency: 'monthly', interval: 1, monthDay: 31 }, '2030-01-15', 4)).toEqual([
      '2030-01-31',
      '2030-02-28',
      '2030-03-31',
      '2030-04-30',
    ])
    expect(first({ frequency: 'monthly', interval: 3, monthDay: 1 }, '2030-01-15', 3)).toEqual([
      '2030-04-01',
      '2030-07-01',
      '2030-10-01',
    ])
    expect(first({ frequency: 'monthly', interval: 1, monthDay: 29 }, '2032-02-01', 1)).toEqual([
      '2032-02-29',
    ])
  })

  it('refuses a schedule missing what its frequency needs, and normalises the rest', () => {
    expect(() => checkSchedule({ frequency: 'weekly' }, '/body/schedule')).toThrow(/weekdays/)
    expect(() => checkSchedule({ frequency: 'monthly' }, '/body/schedule')).toThrow(/monthDay/)
    expect(() => checkSchedule({ frequency: 'daily', monthDay: 3 }, '/body/schedule')).toThrow(/monthDay/)
    expect(checkSchedule({ frequency: 'weekly', weekdays: ['friday', 'monday'] }, '/s')).toEqual({
      frequency: 'weekly',
      interval: 1,
      weekdays: ['monday', 'friday'],
    })
  })
})
